// A UNO league bot, Node's standard library only (docs/bots-api.md). The strategy is
// strategy.mjs.
//
//   BOT_SECRET=<secret> node bot.mjs webhook [port] [host]   # the server POSTs decisions
//   UNO_URL=<site> BOT_TOKEN=<token> node bot.mjs pull       # the bot polls for them
//   node bot.mjs stdio                                       # JSON lines, python -m bots.arena
//
// webhook: listens on host (127.0.0.1) and port (PORT, else 8080; 0 picks a free one), prints
// its URL, checks every request's X-Uno-Signature and answers the command. pull: GET
// /api/bot/decisions, POST each command, and wait UNO_POLL_SECONDS (1), or the poll's
// Retry-After if longer, after a round in which no command was taken (a refused one is not sent
// again at once). stdio: one request a line on stdin, one answer a line on stdout.

import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";

import { choose } from "./strategy.mjs";

function reply(response, status, value) {
  const data = JSON.stringify(value);
  response.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(data),
  });
  response.end(data);
}

// HMAC-SHA256 of the body's exact bytes, compared in constant time.
function signed(secret, body, header) {
  const expected = Buffer.from("sha256=" + createHmac("sha256", secret).update(body).digest("hex"));
  const given = Buffer.from(header ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function webhook(port, host) {
  const secret = process.env.BOT_SECRET;
  if (!secret) throw new Error("set BOT_SECRET");
  const server = createServer((request, response) => {
    if (request.method !== "POST") return reply(response, 200, { ok: true }); // a health check
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      if (!signed(secret, body, request.headers["x-uno-signature"])) {
        return reply(response, 401, { error: "bad signature" }); // not from the server
      }
      try {
        reply(response, 200, choose(JSON.parse(body)));
      } catch (error) {
        console.error(error); // a bug in the strategy: an error, and the default bot moves
        reply(response, 500, { error: String(error) });
      }
    });
  });
  server.listen(port, host, () => console.log(`http://${host}:${server.address().port}/`));
}

// One request of the pull API: [status, JSON body, seconds to wait before asking again].
async function call(method, path, body) {
  const headers = { Authorization: `Bot ${process.env.BOT_TOKEN}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  try {
    const response = await fetch(process.env.UNO_URL.replace(/\/$/, "") + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    // GET /api/bot/decisions says when to ask again (the server's poll interval); a 429 too.
    const wait = Number(response.headers.get("Retry-After") ?? 0);
    const text = await response.text(); // an error's: {"code": ..., "message": ...}
    return [response.status, response.ok ? JSON.parse(text) : text, wait];
  } catch (error) {
    return [0, String(error), 5]; // the server is down or restarting: try again later
  }
}

async function pull(idle) {
  for (;;) {
    let [status, decisions, wait] = await call("GET", "/api/bot/decisions");
    if (status !== 200) {
      console.error("GET /api/bot/decisions:", status, decisions);
      decisions = [];
    }
    let sent = false;
    while (decisions.length) {
      // each answer's `next` is answered at once, without polling
      const decision = decisions.shift();
      let command;
      try {
        command = choose(decision);
      } catch (error) {
        console.error(error); // a bug in the strategy: the deadline's fallback moves instead
        continue;
      }
      if (command === null) continue; // an optional window let go
      const body = {
        command,
        expected_version: decision.version,
        command_id: `${decision.seat}:${decision.version}`,
      };
      let answer;
      [status, answer, wait] = await call("POST", `/api/bot/games/${decision.game}/commands`, body);
      if (status === 200) {
        sent = true;
        decisions.push(...answer.next);
      } else if (status !== 409 && answer.code !== "game-over") {
        // 409: the game moved on, the next poll has it again; game-over: it ended
        console.error("refused:", JSON.stringify(command), status, answer);
      }
    }
    await sleep(1000 * Math.max(wait, sent ? 0 : idle));
  }
}

async function stdio() {
  for await (const line of createInterface({ input: process.stdin })) {
    process.stdout.write(JSON.stringify(choose(JSON.parse(line))) + "\n");
  }
}

const [mode, ...args] = process.argv.slice(2);
if (mode === "webhook") {
  webhook(Number(args[0] ?? process.env.PORT ?? 8080), args[1] ?? "127.0.0.1");
} else if (mode === "pull") {
  await pull(Number(process.env.UNO_POLL_SECONDS ?? 1));
} else if (mode === "stdio") {
  await stdio();
} else {
  console.error("usage: node bot.mjs webhook [port] [host] | pull | stdio");
  process.exit(2);
}
