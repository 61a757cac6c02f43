import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider (oidc-provider) on loopback for the single sign-on tests (docs/sso.md): its
 * development sign-in form accepts any login and password and asserts the login as the subject; grants
 * are given without a consent screen (a first-party client). `tamper` rewrites the ID token of the
 * next token answers and signs it again with the provider's own key — what a hostile or broken
 * provider, or a token meant for another client, looks like to the relying party.
 */
export interface IdentityProvider {
  issuer: string;
  /** Rewrites each ID token the token endpoint answers (undefined: untouched). */
  tamper: ((claims: JWTPayload) => JWTPayload) | undefined;
  /** Replaces the ID token's signature with garbage (the claims stay). */
  breakSignature: boolean;
  close(): Promise<void>;
}

export interface IdentityProviderClient {
  clientId: string;
  clientSecret?: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
}

export async function startIdentityProvider(clients: IdentityProviderClient[]): Promise<IdentityProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-signing-key', alg: 'RS256', use: 'sig' };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      client_id: c.clientId,
      ...(c.clientSecret
        ? { client_secret: c.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }
        : { token_endpoint_auth_method: 'none' }),
      redirect_uris: c.redirectUris,
      post_logout_redirect_uris: c.postLogoutRedirectUris,
      response_types: ['code'],
      grant_types: ['authorization_code'],
    })),
    jwks: { keys: [jwk] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, email: `${sub}@idp.test` }),
    }),
    claims: { openid: ['sub'], email: ['email'] },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['cardportal-test-provider'] },
    // First-party: the grant is given as the user signs in, no consent screen.
    loadExistingGrant: async (ctx) => {
      const { oidc } = ctx;
      if (!oidc.client || !oidc.session?.accountId) return undefined;
      const grantId = oidc.session.grantIdFor(oidc.client.clientId);
      if (grantId) {
        const found = await oidc.provider.Grant.find(grantId);
        if (found) return found;
      }
      const grant = new oidc.provider.Grant({
        clientId: oidc.client.clientId,
        accountId: oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const handle = provider.callback();

  const state: IdentityProvider = {
    issuer,
    tamper: undefined,
    breakSignature: false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  server.on('request', (req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/token') || (!state.tamper && !state.breakSignature)) {
      handle(req, res);
      return;
    }
    // The token answer, rewritten before it leaves (the provider sets its headers, then ends with the body).
    const chunks: Buffer[] = [];
    const end = res.end.bind(res);
    res.write = ((chunk: string | Buffer) => {
      chunks.push(Buffer.from(chunk));
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: string | Buffer) => {
      if (chunk) chunks.push(Buffer.from(chunk));
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id_token?: string };
        if (body.id_token) {
          const claims = state.tamper ? state.tamper(decodeJwt(body.id_token)) : decodeJwt(body.id_token);
          let token = await new SignJWT(claims)
            .setProtectedHeader({ alg: 'RS256', kid: 'test-signing-key' })
            .sign(privateKey);
          if (state.breakSignature) token = `${token.slice(0, token.lastIndexOf('.') + 1)}${'A'.repeat(86)}`;
          body.id_token = token;
        }
        const text = JSON.stringify(body);
        if (!res.headersSent) res.setHeader('content-length', Buffer.byteLength(text));
        end(text);
      })();
      return res;
    }) as typeof res.end;
    handle(req, res);
  });
  return state;
}

/**
 * Walks a browser's way through the provider's development sign-in from the authorization URL to the
 * redirect back to `until` (cookies kept between its requests), as `login`. Answers that URL.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, until: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = new URL(authorizationUrl);
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 12; step += 1) {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: cookieHeader(),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(until)) return next;
      url = next;
      form = undefined;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt)
      throw new Error(`the provider answered ${res.status} without a form: ${html.slice(0, 200)}`);
    url = new URL(action.replaceAll('&amp;', '&'), url);
    form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any-password' } : { prompt });
  }
  throw new Error('the provider did not send the browser back');
}
