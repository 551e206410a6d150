// The table page's controller (ohhell/server/static/js/table/controller.js) driven by the
// messages a server sent to seat 0 during a real short game (fixtures_short_game.json: hands of
// 2, 1 and 2 cards, three bots), under Node: there is no DOM here and no socket, so a controller
// that reached for either would throw. Run with `node --test tests/js/` (Node 20+), or through
// tests/server/test_client_js.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { TableController } from "../../ohhell/server/static/js/table/controller.js";

const recorded = JSON.parse(readFileSync(new URL("./fixtures_short_game.json", import.meta.url), "utf8"));
const frames = recorded.frames;

/** A controller with everything it would do outside recorded: messages sent, draws, sounds. */
function controller(options = {}) {
  const out = { sent: [], draws: 0, sounds: [], moved: [], seated: [], nextId: 0, connection: 1 };
  const keptValues = {};
  const keep = {
    contributionsAt: () => ({ ...keptValues }),
    contributionToSend: (code, hand) => { keptValues[hand] = keptValues[hand] || { value: `v${hand}` }; return keptValues[hand].value; },
    markRefused: (code, hand, reason) => { keptValues[hand] = { ...keptValues[hand], refused: reason }; },
  };
  const ctl = new TableController({
    code: recorded.code, token: "the-token",
    send: (message) => { out.sent.push(message); out.nextId += 1; return out.nextId; },
    connection: () => out.connection,
    changed: () => { out.draws += 1; },
    moved: (from, to) => out.moved.push([from, to]),
    seated: (seat) => out.seated.push(seat),
    sound: (name) => out.sounds.push(name),
    keep,
    ...options,
  });
  return { ctl, out };
}

/** Replay the recorded frames up to (not including) the first one for which `until(ctl)` holds after it. */
function replay(ctl, until = () => false) {
  for (const frame of frames) {
    ctl.receive(structuredClone(frame));
    if (until(ctl)) return;
  }
}

/** The state as the frames describe it, folded here independently of the controller. */
function folded(count = frames.length) {
  let s = null;
  for (const frame of frames.slice(0, count)) if (frame.type === "state") s = frame.full || !s ? { ...frame.changes } : { ...s, ...frame.changes };
  return s;
}

test("there is no DOM here: the controller must not need one", () => {
  assert.equal(typeof document, "undefined");
  assert.equal(typeof window, "undefined");
});

test("the whole recorded game: the state is the server's, merged from its diffs, and every change is drawn", () => {
  const { ctl, out } = controller();
  replay(ctl);
  assert.deepEqual(ctl.s, folded());
  assert.equal(ctl.s.game_over, true);
  assert.equal(ctl.ui.summaryHand, null, "no hand summary over the game's end");
  assert.deepEqual(out.seated, [0]);
  assert.ok(out.draws >= frames.filter((f) => f.type === "state").length);
  assert.deepEqual(ctl.names({ seats: [] }), ["Ann", "bot_n", "bot_n", "bot_n"]); // no catalog loaded: keys
});

test("a finished hand: its last trick goes to its winner first, then its summary shows until dismissed", () => {
  const { ctl } = controller();
  replay(ctl, (c) => c.s && c.s.finished_hands.length === 1);
  assert.equal(ctl.ui.summaryHand, 0);
  assert.equal(ctl.ui.collecting.id, "0-last");
  assert.equal(ctl.ui.summaryShownAt, 0, "not shown while the trick is still on the table");
  ctl.collected("0-last");
  assert.equal(ctl.ui.collecting, null);
  assert.ok(ctl.ui.summaryShownAt > 0);
  ctl.dismissSummary();
  assert.equal(ctl.ui.summaryHand, null);
  ctl.stop();
});

test("an action waits for its answer; a stale one is sent again once while it is still legal, then told", () => {
  const { ctl, out } = controller();
  replay(ctl, (c) => c.s && c.s.phase === "playing" && c.s.turn === 0 && c.s.legal_actions.length > 0);
  const version = ctl.s.version;
  const action = { type: "play", card: ctl.s.legal_actions[0].card };
  out.sent.length = 0;
  ctl.act(action);
  assert.deepEqual(out.sent, [{ type: "act", version, action }]);
  assert.ok(ctl.pendingAction);
  ctl.receive({ type: "error", id: out.nextId, code: "stale", message: "stale" });
  assert.equal(out.sent.length, 2, "sent again");
  ctl.receive({ type: "error", id: out.nextId, code: "stale", message: "Somebody played first" });
  assert.equal(out.sent.length, 2, "only once");
  assert.equal(ctl.pendingAction, null);
  assert.equal(ctl.ui.notice, "Somebody played first");
  ctl.stop();
});

test("a state of another version frees the pending action, and clears the notice", () => {
  const { ctl } = controller();
  const at = frames.findIndex((f, i) => { const s = folded(i + 1); return s && s.phase === "playing" && s.turn === 0 && s.legal_actions.length; });
  replay(ctl, (c) => c.s && c.s.version === folded(at + 1).version);
  ctl.act({ type: "play", card: ctl.s.legal_actions[0].card });
  ctl.ui.notice = "old news";
  ctl.receive(structuredClone(frames.slice(at + 1).find((f) => f.type === "state")));
  assert.equal(ctl.pendingAction, null);
  assert.equal(ctl.ui.notice, "");
  ctl.stop();
});

test("a deal's commitment gets this browser's contribution once a connection, the same value again after a reconnection", () => {
  const { ctl, out } = controller();
  const commitment = frames.find((f) => f.type === "fair" && f.commitment && !f.reveal);
  replay(ctl, (c) => c.s && c.s.seat === 0);
  ctl.receive(commitment);
  ctl.receive(commitment);
  const sent = () => out.sent.filter((m) => m.type === "contribute" && m.hand === commitment.hand);
  assert.equal(sent().length, 1);
  out.connection = 2;
  ctl.receive(commitment);
  assert.equal(sent().length, 2);
  assert.equal(sent()[0].value, sent()[1].value);
  // Refused on the new connection because the first one had arrived: no refusal.
  ctl.receive({ type: "error", id: out.nextId, code: "already", message: "" });
  assert.equal(ctl.kept[commitment.hand].refused, undefined);
});

test("chat from another seat: unread, a sound and the seat's bubble; a muted name counts for nothing", () => {
  const muted = { chatMuted: false, mutedNames: ["Bob"] };
  const { ctl, out } = controller({ prefs: () => muted });
  replay(ctl, (c) => c.s && c.s.seat === 0);
  ctl.receive({ type: "chat", id: 1, seat: 1, name: "Eve", text: "hello" });
  assert.equal(ctl.ui.unread, 1);
  assert.deepEqual(out.sounds.filter((s) => s === "chat"), ["chat"]);
  assert.equal(ctl.reactionOf(1).text, "hello");
  ctl.receive({ type: "chat", id: 2, seat: 2, name: "Bob", text: "psst" });
  assert.equal(ctl.ui.unread, 1);
  assert.equal(ctl.ui.chat.length, 2, "kept, only not counted");
  ctl.togglePanel("chat");
  assert.equal(ctl.ui.unread, 0);
  ctl.togglePanel("chat", true);
  assert.equal(ctl.ui.panel, "chat", "a drawer tab switches, never closes");
  ctl.togglePanel("chat");
  assert.equal(ctl.ui.panel, null);
  ctl.stop();
});

test("opening the history asks for it; a finished hand while it is open asks again", () => {
  const { ctl, out } = controller();
  ctl.togglePanel("history");
  replay(ctl, (c) => c.s && c.s.finished_hands.length === 1);
  assert.equal(out.sent.filter((m) => m.type === "history").length, 2);
  ctl.stop();
});

test("a rematch somebody else started is offered, not imposed: the game moves when accepted", () => {
  const { ctl, out } = controller();
  replay(ctl);
  ctl.receive({ type: "moved", table: "NEW123" });
  assert.deepEqual(out.moved, []);
  assert.equal(ctl.ui.rematchOffer, "NEW123");
  assert.equal(ctl.code, recorded.code);
  ctl.acceptRematch();
  assert.deepEqual(out.moved, [[recorded.code, "NEW123"]]);
  assert.equal(ctl.ui.rematchOffer, null);
  ctl.stop();
});

test("a rematch moves the game: the page is told, this game's state goes, the chat stays", () => {
  const { ctl, out } = controller();
  replay(ctl);
  ctl.receive({ type: "chat", id: 3, seat: 1, name: "Eve", text: "again?" });
  ctl.rematch();
  assert.equal(out.sent.at(-1).type, "rematch");
  assert.equal(ctl.ui.rematch.asked, true);
  ctl.receive({ type: "moved", table: "NEW123" });
  assert.deepEqual(out.moved, [[recorded.code, "NEW123"]]);
  assert.equal(ctl.code, "NEW123");
  assert.equal(ctl.s, null);
  assert.equal(ctl.ui.rematch.asked, false);
  assert.equal(ctl.ui.chat.length, 1);
  ctl.stop();
});
