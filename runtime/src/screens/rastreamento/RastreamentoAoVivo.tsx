export default function RastreamentoAoVivo() {
  return <div>Rastreamento ao vivo</div>;
}
