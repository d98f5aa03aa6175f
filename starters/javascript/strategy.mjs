// Your strategy: the one function to change. bot.mjs asks it for every decision, whichever way
// the bot is run (webhook, pull or stdio).
//
// A decision is {game, variant, seat, version, view, legal, deadline, optional?}
// (docs/bots-api.md, "A decision"); `legal` lists every command the seat may send now, each
// ready to send as it is. Return one of them, or null to let an optional window go.

// The default: the first sensible legal command. An uno call or a catch is free only while the
// seat it names is in view.uncalled; any other one costs cards in basic-plus and newno
// (docs/bots-api.md, "Legal commands that cost cards"), so it is never sent. In an optional
// window (out of turn) it takes a free call or catch and lets anything else go; in turn it plays
// a card if it can (with its uno call when the play leaves one card), else the first free
// command (draw, pass, accept, ...).
export function choose(decision) {
  const owed = decision.view.uncalled;
  const free = decision.legal.filter(
    (command) =>
      !["call-uno", "catch"].includes(command.type) ||
      owed.includes(command.target ?? command.seat),
  );
  if (decision.optional) {
    return free.find((command) => ["call-uno", "catch"].includes(command.type)) ?? null;
  }
  const cards = free.filter((command) => ["play", "submit"].includes(command.type));
  const calling = cards.filter((command) => command.uno);
  return calling[0] ?? cards[0] ?? free[0] ?? null;
}
