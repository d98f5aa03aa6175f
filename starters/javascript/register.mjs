// Register, validate and enter your bot with a personal token only (docs/bots-api.md).
//
//   export UNO_URL=https://uno.example.org UNO_TOKEN=<personal token, scope bots>
//   node register.mjs new <name> pull                        # prints BOT_TOKEN, then waits
//   BOT_SECRET=<secret> node register.mjs new <name> webhook <url of your running bot>
//   node register.mjs status|calls|validate|enter|leave <bot id>
//
// `new` registers the bot, waits while it plays its validation matches (a pull bot's start at
// its first poll: start it with the token printed), enters the ladder UNO_LADDER (bot-arena;
// empty: none) once it is active, and prints its calls. `validate` asks for a new validation
// round and does the same. `calls` prints the strikes and each kept call's verdict and reason
// code. Exits 1 if the bot is not active at the end.

import { setTimeout as sleep } from "node:timers/promises";

const LADDER = process.env.UNO_LADDER ?? "bot-arena";

async function api(method, path, body) {
  const headers = { Authorization: `Token ${process.env.UNO_TOKEN}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(process.env.UNO_URL.replace(/\/$/, "") + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return [response.status, await response.json()]; // an error is {"code": ..., "message": ...}
}

async function must(method, path, body) {
  const [status, answer] = await api(method, path, body);
  if (status >= 300) {
    console.error(`${method} ${path}: ${status} ${answer.code}: ${answer.message}`);
    process.exit(1);
  }
  return answer;
}

function show(bot) {
  const stats = Object.entries(bot.stats).map(
    ([key, value]) => `${key} ${Number.isInteger(value) ? value : value?.toFixed(3) ?? null}`,
  );
  console.log(`bot ${bot.id} ${bot.name}: ${bot.status} (${bot.status_reason})`);
  console.log(`  strikes in a row ${bot.strikes}; ${stats.join(", ")}`);
}

// The last kept calls: a count per reason code, then every call that was not ok.
async function calls(botId) {
  const page = await must("GET", `/api/me/bots/${botId}/calls`);
  const codes = new Map();
  for (const call of page.calls) codes.set(call.code, (codes.get(call.code) ?? 0) + 1);
  const counts = [...codes].map(([code, count]) => `${code} ${count}`);
  console.log(`  calls (newest ${page.calls.length}): ${counts.join(", ") || "none"}`);
  for (const call of page.calls.filter((call) => call.code !== "ok")) {
    const strike = call.strike ? "a strike" : "no strike";
    console.log(`  ${call.at} game ${call.decision.game}: ${call.code}, ${strike}`);
    console.log(`    ${call.message}`);
  }
}

// Wait out the validation; enter the ladder if it passed; print the calls.
async function settle(bot) {
  let reason = null;
  while (bot.status === "validating") {
    if (bot.status_reason !== reason) {
      show(bot);
      reason = bot.status_reason;
    }
    await sleep(1000);
    bot = await must("GET", `/api/me/bots/${bot.id}`);
  }
  show(bot);
  if (bot.status === "active" && LADDER) {
    const [status, entry] = await api("POST", `/api/ladders/${LADDER}/enter`, { bot: bot.id });
    console.log(`ladder ${LADDER}:`, status === 201 ? "entered" : entry.message);
  }
  await calls(bot.id);
  process.exit(bot.status === "active" ? 0 : 1);
}

const [command, ...args] = process.argv.slice(2);
if (command === "new" && args.length >= 2) {
  const [name, kind, url] = args;
  const body = { name, kind };
  if (kind === "webhook") Object.assign(body, { url, secret: process.env.BOT_SECRET });
  const bot = await must("POST", "/api/me/bots", body);
  if (bot.token) {
    // a pull bot's token, shown this once: keep it
    console.log(`BOT_TOKEN=${bot.token}`);
    console.log(`start the bot now: BOT_TOKEN=... node bot.mjs pull  (bot ${bot.id})`);
  }
  await settle(bot);
} else if (command === "validate" && args.length) {
  await settle(await must("POST", `/api/me/bots/${args[0]}/validate`));
} else if (["enter", "leave"].includes(command) && args.length) {
  console.log(await must("POST", `/api/ladders/${LADDER}/${command}`, { bot: Number(args[0]) }));
} else if (command === "status" && args.length) {
  show(await must("GET", `/api/me/bots/${args[0]}`));
} else if (command === "calls" && args.length) {
  await calls(args[0]);
} else {
  console.error("usage: node register.mjs new <name> pull | new <name> webhook <url>");
  console.error("       node register.mjs status|calls|validate|enter|leave <bot id>");
  process.exit(2);
}
