import { describe, expect, it } from 'vitest';
import { harness } from './harness.js';
import { createApp } from '../src/modules/oauth/apps.service.js';

describe('smoke', () => {
  it('metadata and authorize', async () => {
    const h = await harness();
    const { tenantId } = await h.tenant();
    const { app, clientSecret } = await createApp(h.deps.database.db, { tenantId, name: 'A', redirectUris: ['http://127.0.0.1:9999/cb'], scopes: ['bookings:read'] });
    const meta = await h.request({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    console.log(meta.status, JSON.stringify(meta.body));
    const auth = await h.request({ method: 'GET', url: `/oauth/authorize?client_id=${app.client_id}&response_type=code&redirect_uri=${encodeURIComponent('http://127.0.0.1:9999/cb')}&scope=bookings:read&state=xyz&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256` });
    console.log(auth.status, auth.headers, auth.text.slice(-800));
    const noPkce = await h.request({ method: 'GET', url: `/oauth/authorize?client_id=${app.client_id}&response_type=code&redirect_uri=${encodeURIComponent('http://127.0.0.1:9999/cb')}&scope=bookings:read&state=xyz` });
    console.log(noPkce.status, noPkce.headers.location);
    const badUri = await h.request({ method: 'GET', url: `/oauth/authorize?client_id=${app.client_id}&response_type=code&redirect_uri=${encodeURIComponent('http://127.0.0.1:9999/other')}&scope=bookings:read&state=xyz` });
    console.log(badUri.status, badUri.headers.location, badUri.text.slice(-600));
    const tok = await h.request({ method: 'POST', url: '/oauth/token', body: 'grant_type=authorization_code&code=abc&redirect_uri=x&code_verifier=abc', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic ' + Buffer.from(`${app.client_id}:${clientSecret}`).toString('base64') } });
    console.log(tok.status, tok.text);
    expect(meta.status).toBe(200);
  });
});
