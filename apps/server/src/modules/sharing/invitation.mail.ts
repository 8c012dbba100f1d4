const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function invitationMail(
  from: string,
  type: 'group' | 'project',
  name: string,
  link: string,
): { subject: string; text: string; html: string } {
  const what = type === 'group' ? 'folder' : 'project';
  return {
    subject: `${from} invited you to “${name}” on Mixroom`,
    text: `${from} invited you to the ${what} “${name}” on Mixroom.\n\nOpen this link to ask to join; ${from} will confirm:\n${link}\n`,
    html: `<p>${escape(from)} invited you to the ${what} <strong>${escape(name)}</strong> on Mixroom.</p><p><a href="${escape(link)}">Open the invitation</a> to ask to join; ${escape(from)} will confirm.</p>`,
  };
}
