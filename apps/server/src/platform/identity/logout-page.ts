/**
 * The embedded provider's sign-out page, in Mixroom's colours. With `autoSubmit` (the request came
 * with the app's id_token_hint, after the app's own confirmation) it signs out at once; otherwise it
 * asks, so a link on a foreign page cannot sign anyone out.
 */
export function logoutPage(form: string, options: { autoSubmit: boolean; nonce: string }): string {
  const buttons = `<input type="hidden" name="logout" value="yes"/>
<div class="actions"><a class="secondary" href="/">Stay signed in</a><button type="submit" autofocus>Sign out</button></div></form>`;
  const filledForm = form.replace('</form>', buttons);
  const script = options.autoSubmit ? `<script nonce="${options.nonce}">document.forms[0].submit()</script>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign out of Mixroom</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#1a1b1e radial-gradient(circle at 70% 10%,rgba(190,75,219,.16),transparent 55%);color:#c9c9c9;min-height:100vh;display:grid;place-items:center}
.card{background:#25262b;border:1px solid #373a40;border-radius:16px;padding:32px;width:min(400px,calc(100vw - 48px));box-shadow:0 20px 40px rgba(0,0,0,.35)}
.logo{display:flex;align-items:center;gap:8px;font-weight:700;font-size:20px;color:#cc5de8}.mark{width:28px;height:28px;border-radius:7px;background:linear-gradient(135deg,#cc5de8,#7950f2)}
h1{color:#fff;font-size:22px;margin:24px 0 8px}p{margin:0 0 24px;line-height:1.5}
.actions{display:flex;gap:12px;justify-content:flex-end}
button,.secondary{font:inherit;font-weight:600;font-size:14px;border-radius:8px;padding:9px 18px;cursor:pointer;text-decoration:none}
button{background:#e03131;color:#fff;border:0}.secondary{color:#c9c9c9;border:1px solid #373a40}
</style></head>
<body><main class="card"><div class="logo"><span class="mark"></span>Mixroom</div>
<h1>${options.autoSubmit ? 'Signing out…' : 'Sign out?'}</h1>
<p>${options.autoSubmit ? 'One moment.' : 'Are you sure you want to sign-out? You will need your password to sign in again.'}</p>
${filledForm}</main>${script}</body></html>`;
}
