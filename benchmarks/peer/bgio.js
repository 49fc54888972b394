// aegis bench peer: boardgame.io's side. A 4-seat card game with secret hands (playerView shows each seat its
// own hand only), its server, and a driver that times full move cycles over socket.io on loopback.
//
//   node bgio.js server PORT memory|flatfile DIR   serve the game (FlatFile keeps matches in DIR), its Lobby API
//                                                  on PORT + 1 (on PORT itself the locked koa-compose 4.2 never
//                                                  sees the Lobby's routes: they are added after socket.io's server)
//   node bgio.js drive PORT CYCLES WARMUP          play WARMUP then CYCLES moves; print JSON on stdout
//
// A cycle: the seat whose turn it is plays its first card (a move run on the server only, `client: false`, so
// that no seat sees the new state before the server has stored it), and it ends when the client of every seat
// (one socket.io connection each) has received the state with that play.
'use strict';

const SEATS = 4;
const HAND = 5;

function deck() {
  const cards = [];
  for (const suit of ['S', 'H', 'D', 'C']) for (let rank = 1; rank <= 13; rank++) cards.push(suit + rank);
  return cards;
}

const Cards = {
  name: 'cards',
  minPlayers: SEATS,
  maxPlayers: SEATS,
  setup: ({ ctx, random }) => {
    const pile = random.Shuffle(deck());
    const hands = {};
    for (let p = 0; p < ctx.numPlayers; p++) hands[String(p)] = pile.splice(0, HAND);
    return { hands, pile, table: [], played: 0 };
  },
  // a seat sees its own hand, how many cards the others hold, and the table
  playerView: ({ G, playerID }) => {
    const counts = {};
    for (const p of Object.keys(G.hands)) counts[p] = G.hands[p].length;
    return {
      hand: playerID != null && G.hands[playerID] ? G.hands[playerID] : [],
      counts,
      table: G.table.slice(-SEATS),
      pileSize: G.pile.length,
      played: G.played,
    };
  },
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    play: {
      client: false,
      move: ({ G, playerID, random }, index) => {
        const hand = G.hands[playerID];
        const [card] = hand.splice(index % hand.length, 1);
        G.table.push(card);
        if (G.pile.length === 0) {
          G.pile = random.Shuffle(G.table);
          G.table = [];
        }
        hand.push(G.pile.shift());
        G.played += 1;
      },
    },
  },
};

async function serve(port, storage, dir) {
  const { Server, FlatFile } = require('boardgame.io/server');
  // node-persist 3.1 (FlatFile's store) queues writes and flushes them once a second by default, and the server
  // waits for its write before it answers: one move a second. Written at once instead (as node-persist 3.0 did),
  // each state goes to its file before the server answers (no fsync, as in node-persist).
  class Direct extends FlatFile {
    async connect() {
      await this.games.init({ dir: this.dir, logging: false, ttl: false, writeQueue: false });
    }
  }
  const db = storage === 'flatfile' ? new Direct({ dir, logging: false }) : undefined;
  const server = Server({ games: [Cards], db });
  await server.run({ port, lobbyConfig: { apiPort: port + 1 } });
  process.stdout.write(`listening ${port} ${storage}\n`);
}

async function drive(port, cycles, warmup) {
  const { Client, LobbyClient } = require('boardgame.io/client');
  const { SocketIO } = require('boardgame.io/multiplayer');
  const url = `http://127.0.0.1:${port}`;
  const lobby = new LobbyClient({ server: `http://127.0.0.1:${port + 1}` });
  const { matchID } = await lobby.createMatch('cards', { numPlayers: SEATS });
  const clients = [];
  const seen = [];
  let waiting = null; // { played, resolve }
  const check = () => {
    if (waiting && seen.every((s) => s >= waiting.played)) {
      const done = waiting.resolve;
      waiting = null;
      done();
    }
  };
  const until = (played) =>
    new Promise((resolve) => {
      waiting = { played, resolve };
      check();
    });
  const within = (promise, ms) => {
    let timer;
    const late = new Promise((resolve) => { timer = setTimeout(() => resolve(false), ms); });
    return Promise.race([promise.then(() => true), late]).finally(() => clearTimeout(timer));
  };
  // The seats connect one at a time, each once the one before holds its first state: with FlatFile (writes not
  // queued) two connections updating the match's metadata at once were seen to leave a seat with no state for
  // good. A seat still without a state after 2 s is connected again.
  let reconnects = 0;
  for (let seat = 0; seat < SEATS; seat++) {
    const { playerCredentials } = await lobby.joinMatch('cards', matchID, {
      playerID: String(seat),
      playerName: `p${seat}`,
    });
    const client = Client({
      game: Cards,
      multiplayer: SocketIO({ server: url }),
      matchID,
      playerID: String(seat),
      credentials: playerCredentials,
      debug: false,
    });
    seen.push(-1);
    client.subscribe((state) => {
      if (state && state.G) {
        seen[seat] = state.G.played;
        check();
      }
    });
    client.start();
    clients.push(client);
    while (!(await within(until(0), 2000))) {
      if (reconnects >= 10) throw new Error(`seat ${seat} got no state after ${reconnects} connections again`);
      client.stop();
      client.start();
      reconnects += 1;
    }
  }
  // A move sent while the mover's client still held the previous turn's state was seen, once in many runs, to be
  // dropped: the cycle then waited forever. After RETRY_MS without the new state, the move is sent again (the server
  // refuses a second play in the same turn), and the retries are reported.
  const RETRY_MS = 1000;
  let retries = 0;
  const cycle = async () => {
    const state = clients[0].getState();
    const next = state.G.played + 1;
    for (let attempt = 0; ; attempt++) {
      const mover = clients[Number(clients[0].getState().ctx.currentPlayer)];
      mover.moves.play(0);
      if (await within(until(next), RETRY_MS)) return;
      if (attempt >= 20) throw new Error(`no state with play ${next} after ${attempt + 1} tries`);
      retries += 1;
    }
  };
  for (let i = 0; i < warmup; i++) await cycle();
  const t0 = process.hrtime.bigint();
  const each = [];
  for (let i = 0; i < cycles; i++) {
    const c0 = process.hrtime.bigint();
    await cycle();
    each.push(Number(process.hrtime.bigint() - c0) / 1e9);
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  // every seat holds its own hand and only its own
  const secret = clients.every((c, seat) => {
    const G = c.getState().G;
    return G.hand.length === HAND && G.played === warmup + cycles && G.hands === undefined && String(seat) === c.playerID;
  });
  for (const c of clients) c.stop();
  process.stdout.write(JSON.stringify({ cycles, warmup, seconds, each, secret, retries, reconnects }) + '\n');
  process.exit(0);
}

const [mode, port, a, b] = process.argv.slice(2);
const run = mode === 'server' ? serve(Number(port), a, b) : drive(Number(port), Number(a), Number(b));
run.catch((err) => {
  process.stderr.write(`${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
