// Outgoing e-mail through nodemailer; SMTP settings from env: SMTP_URL (smtp://user:pass@host:port, smtps://…) or
// SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASS, SMTP_SECURE; sender SMTP_FROM.
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface Mail { to: string; subject: string; text: string; html?: string; attachments?: { filename: string; content: Buffer; contentType?: string }[] }

export async function sendMail(m: Mail, log?: Logger): Promise<boolean> {
  return (await trySendMail(m, log)) === null;
}

/** Sends; answers null when sent, else the reason (no SMTP configured, or the server's error). */
export async function trySendMail(m: Mail, log?: Logger): Promise<string | null> {
  const host = process.env.SMTP_HOST;
  const url = process.env.SMTP_URL;
  if (!host && !url) {
    log?.warn({ to: m.to, subject: m.subject, text: m.text }, 'SMTP_HOST não definido: e-mail não enviado');
    return 'SMTP não configurado (SMTP_URL)';
  }
  const secure = process.env.SMTP_SECURE === '1' || process.env.SMTP_SECURE === 'true';
  const transport = url ? nodemailer.createTransport(url) : nodemailer.createTransport({
    host,
    port: Number(process.env.SMTP_PORT ?? (secure ? 465 : 587)),
    secure,
    ignoreTLS: !secure && process.env.SMTP_STARTTLS !== '1',
    auth: process.env.SMTP_USER ? { user: process.env.SMTP_USER, pass: process.env.SMTP_PASS ?? '' } : undefined,
    connectionTimeout: 10_000,
  });
  try {
    await transport.sendMail({ from: process.env.SMTP_FROM ?? 'Rastro <nao-responda@rastro.local>', ...m });
    return null;
  } catch (err) {
    log?.error({ err, to: m.to }, 'falha ao enviar e-mail');
    return (err as Error).message || 'falha ao enviar e-mail';
  } finally {
    transport.close();
  }
}
