// /adm/cfg/equipamentos/:id/reiniciar_simcard/:serial (spec asset tab menu): queues the restart that re-attaches the
// SIM card of device :serial (equipamento action reiniciar_simcard, through the command queue), naming the SIM card
// (line) and the vehicle the device is in.
import { useParams } from 'react-router-dom';
import { DeviceActionPanel, QueueLink, useDevice } from './DeviceAction';
import { modelLabel, restartSim, vehicle } from './vinculo';

export default function ReiniciarSimcard() {
  const { serial } = useParams();
  const { device: d, loading, error } = useDevice(serial);
  const sim = d?.simcard ? `o SIM card ${d.simcard}` : 'o SIM card (sem linha cadastrada)';
  const where = d?.ativoId != null ? `instalado no ativo ${vehicle(d.ativoDescricao, d.placa)}` : 'que não está vinculado a nenhum ativo';
  const sentence = d ? `Reinicia ${sim} do equipamento ${d.serial} (${modelLabel(d)}), ${where}.` : '';
  return (
    <DeviceActionPanel
      title={`Reiniciar SIM card: ${serial ?? ''}`}
      loading={loading} error={error}
      notFound={!loading && !d ? `Equipamento ${serial ?? ''} não encontrado nesta empresa` : null}
      what={`${sentence} O comando entra na fila de processamento e é enviado quando o equipamento se conectar; o equipamento reinicia e fica alguns minutos sem comunicar.`}
      confirmTitle="Reiniciar SIM card"
      confirm={`${sentence} O equipamento será reiniciado. Deseja continuar?`}
      button="Reiniciar SIM card"
      run={async () => {
        const { json } = await restartSim(d!.id);
        const row = Array.isArray(json) ? json[0] : undefined;
        return `Reinício do SIM card enfileirado para o equipamento ${d!.serial}${d!.ativoId != null ? ` (ativo ${vehicle(d!.ativoDescricao, d!.placa)})` : ''}${row?.id ? `: comando nº ${row.id}` : ''}`;
      }}
      after={d ? <QueueLink serial={d.serial} /> : undefined}
    />
  );
}
