// /adm/cfg/equipamentos/:id/remover_equipamento/remover (spec asset tab menu): ends the open link of device :id (its
// serial or id) — the same as Desvincular on the asset's Equipamento tab (equipamento action remover_equipamento).
import { useParams } from 'react-router-dom';
import { DeviceActionPanel, useDevice } from './DeviceAction';
import { modelLabel, unlink, vehicle } from './vinculo';

export default function RemoverEquipamento() {
  const { id } = useParams();
  const { device: d, loading, error, reload } = useDevice(id);
  const linked = d?.ativoId != null;
  const nome = d ? vehicle(d.ativoDescricao, d.placa) : '';
  const sentence = d
    ? linked
      ? `Remove o equipamento ${d.serial} (${modelLabel(d)}) do ativo ${nome}: o vínculo é encerrado agora e fica no histórico; o ativo deixa de receber comandos e posições por este equipamento.`
      : `O equipamento ${d.serial} (${modelLabel(d)}) não está vinculado a nenhum ativo: não há vínculo para encerrar.`
    : '';
  return (
    <DeviceActionPanel
      title={`Remover equipamento: ${d?.serial ?? id ?? ''}`}
      loading={loading} error={error}
      notFound={!loading && !d ? `Equipamento ${id ?? ''} não encontrado nesta empresa` : null}
      what={sentence}
      confirmTitle="Remover equipamento"
      confirm={`Deseja remover o equipamento ${d?.serial ?? ''} do ativo ${nome}? O vínculo em vigor será encerrado.`}
      button="Remover equipamento"
      disabled={!linked}
      run={async () => {
        await unlink(d!.id);
        reload();
        return `Equipamento ${d!.serial} removido do ativo ${nome}`;
      }}
    />
  );
}
