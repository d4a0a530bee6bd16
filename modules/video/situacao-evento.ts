// The online-state push shared by the server (situacao.ts) and the live screen.
export const EVENTO_SITUACAO = 'video_situacao';
export const CHAVES_VIDEO = ['tlm.vid.video_ao_vivo', 'tlm.vid.download', 'tlm.vid.historico_video.lista'] as const;

/** The push: the company's cameras linked to an asset, online true/false (null: the CMSV6 server did not answer). */
export interface SituacaoVideo { empresaId: number; erro: string | null; ativos: { id: number; serial: string; online: boolean | null }[] }

/** A clip request's state change (server/clipes.ts) pushed to its company's download and history screens. */
export const EVENTO_SOLICITACAO = 'video_solicitacao';
export const CHAVES_SOLICITACAO = ['tlm.vid.download', 'tlm.vid.historico_video.lista'] as const;
export interface SolicitacaoVideoPush { empresaId: number; id: number; situacao: 'solicitado' | 'disponivel' | 'falhou'; mensagem: string | null }
