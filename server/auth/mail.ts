// Outgoing e-mail through nodemailer; SMTP settings from env (SMTP_HOST, SMTP_PORT, SMTP_FROM, SMTP_USER, SMTP_PASS, SMTP_SECURE).
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface Mail { to: string; subject: string; text: string; html?: string }

export async function sendMail(m: Mail, log?: Logger): Promise<boolean> {
  const host = process.env.SMTP_HOST;
  if (!host) {
    log?.warn({ to: m.to, subject: m.subject, text: m.text }, 'SMTP_HOST não definido: e-mail não enviado');
    return false;
  }
  const secure = process.env.SMTP_SECURE === '1' || process.env.SMTP_SECURE === 'true';
  const transport = nodemailer.createTransport({
    host,
    port: Number(process.env.SMTP_PORT ?? (secure ? 465 : 587)),
    secure,
    ignoreTLS: !secure && process.env.SMTP_STARTTLS !== '1',
    auth: process.env.SMTP_USER ? { user: process.env.SMTP_USER, pass: process.env.SMTP_PASS ?? '' } : undefined,
    connectionTimeout: 10_000,
  });
  try {
    await transport.sendMail({ from: process.env.SMTP_FROM ?? 'Rastro <nao-responda@rastro.local>', ...m });
    return true;
  } catch (err) {
    log?.error({ err, to: m.to }, 'falha ao enviar e-mail');
    return false;
  } finally {
    transport.close();
  }
}
