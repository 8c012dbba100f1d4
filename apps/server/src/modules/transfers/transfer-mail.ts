import { formatTransferSize } from '@mixroom/shared';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const day = (date: Date) =>
  date.toLocaleDateString('en-GB', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const paragraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => `<p>${escape(p).replace(/\n/g, '<br>')}</p>`)
    .join('');

export interface Mail {
  subject: string;
  text: string;
  html: string;
}

interface TransferFacts {
  sender: string;
  name: string;
  message: string;
  size: number;
  fileCount: number;
  expiresAt: Date;
  link: string;
}

const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

/** The mail each recipient of an e-mail transfer receives: link, message, sender, size, expiry. */
export function transferMail(t: TransferFacts): Mail {
  const facts = `${files(t.fileCount)}, ${formatTransferSize(t.size)}, available until ${day(t.expiresAt)}`;
  return {
    subject: `${t.sender} sent you ${t.name} on Mixroom`,
    text: `${t.sender} sent you “${t.name}” (${facts}).\n\n${t.message}\n\nDownload it here:\n${t.link}\n`,
    html:
      `<p><strong>${escape(t.sender)}</strong> sent you <strong>${escape(t.name)}</strong> (${escape(facts)}).</p>` +
      `${paragraphs(t.message)}<p><a href="${escape(t.link)}">Open the transfer</a></p>` +
      `<p style="color:#666">${escape(t.link)}</p>`,
  };
}

/** Sent once, a day before a transfer expires, to recipients who have not downloaded it. */
export function reminderMail(t: TransferFacts): Mail {
  return {
    subject: `Reminder: ${t.name} from ${t.sender} expires soon`,
    text: `${t.sender} sent you “${t.name}” (${files(t.fileCount)}, ${formatTransferSize(t.size)}). You have not downloaded it yet, and it will no longer be available after ${day(t.expiresAt)}.\n\n${t.link}\n`,
    html: `<p>${escape(t.sender)} sent you <strong>${escape(t.name)}</strong> (${files(t.fileCount)}, ${escape(formatTransferSize(t.size))}). You have not downloaded it yet, and it will no longer be available after ${escape(day(t.expiresAt))}.</p><p><a href="${escape(t.link)}">Open the transfer</a></p>`,
  };
}

/** Tells the sender that every recipient has everything. */
export function allDownloadedMail(name: string, historyUrl: string): Mail {
  return {
    subject: `${name} was downloaded`,
    text: `Everything in your transfer “${name}” has been downloaded.\n\nSee who downloaded what: ${historyUrl}\n`,
    html: `<p>Everything in your transfer <strong>${escape(name)}</strong> has been downloaded.</p><p><a href="${escape(historyUrl)}">See who downloaded what</a></p>`,
  };
}

/** Tells the owner of a file request that someone uploaded files through it. */
export function requestFulfilledMail(uploader: string, t: Omit<TransferFacts, 'sender'>, historyUrl: string): Mail {
  return {
    subject: `${uploader} sent you files through your request`,
    text: `${uploader} uploaded ${files(t.fileCount)} (${formatTransferSize(t.size)}) through your file request.\n\n${t.message}\n\n${historyUrl}\n`,
    html: `<p>${escape(uploader)} uploaded ${files(t.fileCount)} (${escape(formatTransferSize(t.size))}) through your file request.</p>${paragraphs(t.message)}<p><a href="${escape(historyUrl)}">Open it</a></p>`,
  };
}
