// The mails of a user's own account: a new address to confirm, the old one told, the data archive,
// the account gone, and notices to other users.

export interface Mail {
  subject: string;
  text: string;
  html: string;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function mail(subject: string, name: string, lines: string[], link?: { href: string; label: string }): Mail {
  const text = [`Hi ${name},`, '', ...lines, ...(link ? ['', link.href] : []), ''].join('\n');
  const html = [
    `<p>Hi ${escape(name)},</p>`,
    ...lines.map((line) => `<p>${escape(line)}</p>`),
    ...(link ? [`<p><a href="${escape(link.href)}">${escape(link.label)}</a></p>`] : []),
  ].join('');
  return { subject, text, html };
}

export const confirmEmailMail = (name: string, link: string): Mail =>
  mail(
    'Confirm your new Mixroom e-mail address',
    name,
    [
      'You asked to use this address for your Mixroom account. Open this link within 24 hours to confirm it; until then your account keeps its current address.',
      "If it wasn't you, ignore this e-mail.",
    ],
    { href: link, label: 'Confirm this address' },
  );

export const emailChangedMail = (name: string, newEmail: string): Mail =>
  mail('Your Mixroom e-mail address was changed', name, [
    `Your Mixroom account now uses ${newEmail}. You sign in with that address from now on.`,
    "If it wasn't you, reset your password and contact your Mixroom administrator.",
  ]);

export const dataExportReadyMail = (name: string, link: string, days: number): Mail =>
  mail(
    'Your Mixroom data is ready to download',
    name,
    [
      `The archive of your data (projects, comments, notes and account details) is ready. The link works for ${days} days.`,
    ],
    { href: link, label: 'Download my data' },
  );

export const accountDeletedMail = (name: string): Mail =>
  mail('Your Mixroom account was deleted', name, [
    'Your account and everything you owned on Mixroom (folders, projects, files, comments) have been deleted.',
  ]);

export const noticeMail = (name: string, title: string, body: string, link: string): Mail =>
  mail(`Mixroom: ${title}`, name, [body], { href: link, label: 'Open Mixroom' });
