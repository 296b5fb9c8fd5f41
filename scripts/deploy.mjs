// `npm run deploy`: migrate every remote database, then deploy the Workers in binding order
// (notification service, main API, ticket mail: each binds the one deployed before it).
import { migrateAll } from "./db-migrate.mjs";
import { readConfig, workerConfigs, wrangler } from "./lib/wrangler.mjs";

const PLACEHOLDER = /^0{8}-0{4}-0{4}-0{4}-\d{12}$/;

const configs = workerConfigs();
for (const config of configs) {
  const unset = (readConfig(config).d1_databases ?? []).filter((db) => PLACEHOLDER.test(db.database_id));
  if (unset.length) {
    console.error(
      `${config}: ${unset.map((d) => d.binding).join(", ")} still carry local placeholder ids.\n` +
        "Create them with `wrangler d1 create <name>` (tenant slots: `npm run slots:add -- N`) and put the ids in the config.",
    );
    process.exit(1);
  }
}
console.log(`migrated ${await migrateAll({ remote: true })} remote database(s)`);
const order = ["workers/notify/wrangler.toml", "wrangler.toml", "workers/ticket-mail/wrangler.toml"].filter(
  (c) => configs.includes(c),
);
for (const config of order) {
  console.log(await wrangler(["deploy", "-c", config]));
}
