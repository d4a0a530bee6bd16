export default function Relatorios() { return null; }
