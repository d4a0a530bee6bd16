export default function AnaliseViagens() {
  return <div />;
}
