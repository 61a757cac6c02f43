/**
 * Module boundaries, checked by `npm run lint` (dependency-cruiser; docs/architecture.md, DESIGN §7).
 *
 * The server (apps/server/src):
 * - kernel: http/, db/, security/, text/, kernel/ and config.ts — plumbing with no feature owner. It
 *   imports nothing of a feature module or of the composition.
 * - feature modules: modules/<name>/. A module's public surface is its index.ts: another module, the
 *   composition and everything else import only that, and a module imports another only along
 *   SERVER_GRAPH below.
 * - composition roots: app.ts, modules.ts (the list of modules), server.ts, cli.ts, commands.ts (the
 *   CLI's commands), services.ts and
 *   demo/ — they put the modules together and may import any module's index.ts.
 *
 * The application SPA (apps/web/src): the same rule for screens/<name>/ (WEB_GRAPH); frame/, lib/ and
 * api/ are its kernel and import no screen. Tests are not cruised (they may reach into anything).
 *
 * No cycles anywhere, type-only imports included.
 */

/**
 * Which server module may import which (its index.ts). Each module is listed; an edge not listed here
 * fails the lint. The graph itself must be acyclic (checked below, before dependency-cruiser runs).
 */
const SERVER_GRAPH = {
  access: [],
  'access-as': ['access', 'issuers', 'multi-user'],
  accounting: ['accounts'],
  accounts: ['access', 'issuers', 'users'],
  app: ['multi-user'],
  audit: ['access'],
  cobrand: [],
  expenses: ['access', 'accounts', 'mail'],
  health: [],
  issuers: ['access'],
  login: ['access', 'mail', 'token', 'users'],
  logout: ['sso'],
  mail: ['cobrand'],
  'multi-user': ['access'],
  organisations: ['access', 'issuers'],
  otp: ['users'],
  password: ['issuers', 'mail', 'users'],
  portal: ['cobrand'],
  profile: ['issuers', 'multi-user', 'token', 'users'],
  registration: ['accounts', 'issuers', 'mail', 'organisations', 'users'],
  roles: ['access', 'multi-user'],
  sso: ['access', 'issuers', 'mail', 'users'],
  text: [],
  token: ['mail', 'users'],
  transactions: ['access', 'accounting', 'accounts', 'issuers', 'mail'],
  users: ['access', 'issuers', 'mail', 'organisations'],
};

/** Which screen of the application may import which (its index.ts). */
const WEB_GRAPH = {
  accounting: [],
  accounts: [],
  audit: [],
  expenses: [],
  home: ['transactions'],
  issuers: [],
  'multi-user': [],
  organisation: [],
  people: [],
  profile: [],
  roles: [],
  transactions: [],
};

const SERVER = '^apps/server/src/';
const SERVER_MODULES = `${SERVER}modules/`;
const SERVER_KERNEL = `${SERVER}(http|db|security|text|kernel)/|${SERVER}config[.]ts$`;
const SERVER_COMPOSITION = `${SERVER}(app|modules|server|cli|commands|services)[.]ts$|${SERVER}demo/`;
const WEB = '^apps/web/src/';
const WEB_SCREENS = `${WEB}screens/`;
const WEB_KERNEL = `${WEB}(frame|lib|api)/`;
const WEB_ROOTS = `${WEB}(routes|main)[.]tsx$`;

/** Throws when a declared graph names an unknown node or has a cycle: a cycle is never allowed. */
function checkGraph(label, graph) {
  const state = new Map();
  const visit = (node, path) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open')
      throw new Error(`${label}: the declared graph has a cycle: ${[...path, node].join(' → ')}`);
    state.set(node, 'open');
    for (const next of graph[node]) {
      if (!(next in graph)) throw new Error(`${label}: ${node} → ${next}: ${next} is not in the graph`);
      visit(next, [...path, node]);
    }
    state.set(node, 'done');
  };
  for (const node of Object.keys(graph)) visit(node, []);
}
checkGraph('SERVER_GRAPH', SERVER_GRAPH);
checkGraph('WEB_GRAPH', WEB_GRAPH);

const literal = (name) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
const oneOf = (names) => `(${names.map(literal).join('|')})`;

/** One rule per node: it may import only itself and its declared dependencies among its siblings. */
function graphRules(prefix, base, graph, what) {
  return Object.entries(graph).map(([node, allowed]) => ({
    name: `${prefix}-undeclared-edge-from-${node}`,
    comment: `${what} ${node} may import only ${allowed.length ? allowed.join(', ') : `no other ${what}`} (the declared graph in .dependency-cruiser.cjs)`,
    severity: 'error',
    from: { path: `${base}${literal(node)}/` },
    to: { path: base, pathNot: `${base}${oneOf([node, ...allowed])}/` },
  }));
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, anywhere (type-only imports count).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    // ---- server
    {
      name: 'server-module-internals',
      comment: "A module imports another module only through that module's index.ts.",
      severity: 'error',
      from: { path: `${SERVER_MODULES}([^/]+)/` },
      to: { path: SERVER_MODULES, pathNot: [`${SERVER_MODULES}$1/`, `${SERVER_MODULES}[^/]+/index[.]ts$`] },
    },
    {
      name: 'server-module-internals-from-outside',
      comment: 'Outside the modules (the composition roots), a module is imported only through its index.ts.',
      severity: 'error',
      from: { path: SERVER, pathNot: SERVER_MODULES },
      to: { path: SERVER_MODULES, pathNot: `${SERVER_MODULES}[^/]+/index[.]ts$` },
    },
    {
      name: 'server-kernel-imports-feature',
      comment:
        'The kernel (http, db, security, text, kernel, config) imports no feature module and no composition root.',
      severity: 'error',
      from: { path: SERVER_KERNEL },
      to: { path: `${SERVER_MODULES}|${SERVER_COMPOSITION}` },
    },
    {
      name: 'server-module-imports-composition',
      comment:
        'A module never imports a composition root (app.ts, modules.ts, server.ts, cli.ts, services.ts, demo/).',
      severity: 'error',
      from: { path: SERVER_MODULES },
      to: { path: SERVER_COMPOSITION },
    },
    {
      name: 'server-module-not-in-graph',
      comment:
        'Every module folder is a node of SERVER_GRAPH (add it there, with the modules it may import).',
      severity: 'error',
      from: {
        path: `${SERVER_MODULES}([^/]+)/`,
        pathNot: `${SERVER_MODULES}${oneOf(Object.keys(SERVER_GRAPH))}/`,
      },
      to: { path: SERVER_MODULES, pathNot: `${SERVER_MODULES}$1/` },
    },
    ...graphRules('server', SERVER_MODULES, SERVER_GRAPH, 'server module'),
    // ---- application SPA
    {
      name: 'web-screen-internals',
      comment: "A screen imports another screen only through that screen's index.ts.",
      severity: 'error',
      from: { path: `${WEB_SCREENS}([^/]+)/` },
      to: { path: WEB_SCREENS, pathNot: [`${WEB_SCREENS}$1/`, `${WEB_SCREENS}[^/]+/index[.]ts$`] },
    },
    {
      name: 'web-screen-internals-from-outside',
      comment: 'Outside the screens (routes.tsx), a screen is imported only through its index.ts.',
      severity: 'error',
      from: { path: WEB, pathNot: WEB_SCREENS },
      to: { path: WEB_SCREENS, pathNot: `${WEB_SCREENS}[^/]+/index[.]ts$` },
    },
    {
      name: 'web-kernel-imports-screen',
      comment: 'frame/, lib/ and api/ import no screen, nor routes.tsx or main.tsx.',
      severity: 'error',
      from: { path: WEB_KERNEL },
      to: { path: `${WEB_SCREENS}|${WEB_ROOTS}` },
    },
    {
      name: 'web-screen-not-in-graph',
      comment: 'Every screen folder is a node of WEB_GRAPH (add it there, with the screens it may import).',
      severity: 'error',
      from: { path: `${WEB_SCREENS}([^/]+)/`, pathNot: `${WEB_SCREENS}${oneOf(Object.keys(WEB_GRAPH))}/` },
      to: { path: WEB_SCREENS, pathNot: `${WEB_SCREENS}$1/` },
    },
    ...graphRules('web', WEB_SCREENS, WEB_GRAPH, 'screen'),
  ],
  options: {
    // Production code only: tests (and the SPA's test support) may import anything they exercise.
    exclude: { path: ['[.]test[.]tsx?$', '^apps/web/src/test/', 'node_modules'] },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are edges too (a type cycle is a cycle).
    tsPreCompilationDeps: true,
    moduleSystems: ['es6'],
  },
};
