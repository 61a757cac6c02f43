import { defineCommand } from '../../kernel/cli.ts';
import { listIssuersWithCompanies } from './organisations.ts';

/** The organisation commands of the admin CLI. */
export const organisationCommands = [
  defineCommand({
    name: 'org list',
    summary: 'list issuers and their companies with their numbers',
    async run({ db, io }) {
      for (const issuer of await listIssuersWithCompanies(db)) {
        io.out(
          [
            'issuer',
            issuer.number,
            issuer.name1,
            `ICA ${issuer.ica}`,
            `bank ${issuer.bankNumber}`,
            `group ${issuer.groupName ?? '-'}`,
            issuer.active ? 'active' : 'inactive',
          ].join('\t'),
        );
        for (const c of issuer.companies) {
          io.out(
            [
              '  company',
              c.number,
              c.name1,
              `group ${c.groupName ?? '-'}`,
              c.multiUser ? 'multi-user' : 'single-user',
              c.active ? 'active' : 'inactive',
            ].join('\t'),
          );
        }
      }
    },
  }),
];
