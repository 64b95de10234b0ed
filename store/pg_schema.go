package store

// The PostgreSQL schema, as numbered migrations applied in order at open (pgMigrate). A new
// layout appends one; an applied one never changes. Plain SQL that PostgreSQL 15 and
// CockroachDB both accept: no advisory locks, no LISTEN/NOTIFY, no PL/pgSQL.
//
// Each record has real columns for what is looked up or queried (an archivist's SELECT reads
// them), and doc: the record as the store hands it back (JSON), which keeps fields the columns
// do not name (a game's tokens, flags and mail counts; a tournament's rounds and log).
var pgMigrations = []string{
	1: `
CREATE TABLE counters (
	name  TEXT PRIMARY KEY,
	value BIGINT NOT NULL
);
CREATE TABLE settings (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE lease (
	name    TEXT PRIMARY KEY,
	holder  TEXT NOT NULL,
	epoch   BIGINT NOT NULL,
	expires TIMESTAMPTZ NOT NULL
);
CREATE TABLE games (
	id         BIGINT PRIMARY KEY,
	variant    TEXT NOT NULL,
	white      TEXT NOT NULL,
	black      TEXT NOT NULL,
	status     TEXT NOT NULL,
	result     TEXT NOT NULL DEFAULT '',
	reason     TEXT NOT NULL DEFAULT '',
	tournament BIGINT NOT NULL DEFAULT 0,
	round      INT NOT NULL DEFAULT 0,
	created    TIMESTAMPTZ NOT NULL,
	updated    TIMESTAMPTZ NOT NULL,
	due        TIMESTAMPTZ,
	doc        JSONB NOT NULL
);
CREATE INDEX games_white ON games (lower(white), id);
CREATE INDEX games_black ON games (lower(black), id);
CREATE INDEX games_white_local ON games (split_part(lower(white), '@', 1), id);
CREATE INDEX games_black_local ON games (split_part(lower(black), '@', 1), id);
CREATE INDEX games_state ON games (status, variant, id);
CREATE INDEX games_due ON games (due, id);
CREATE INDEX games_tournament ON games (tournament, round, id);
CREATE TABLE events (
	game   BIGINT NOT NULL REFERENCES games (id),
	seq    BIGINT NOT NULL,
	side   INT NOT NULL,
	kind   TEXT NOT NULL DEFAULT '',
	text   TEXT NOT NULL,
	at     TIMESTAMPTZ NOT NULL,
	source TEXT NOT NULL,
	days   INT NOT NULL DEFAULT 0,
	undo   INT NOT NULL DEFAULT 0,
	PRIMARY KEY (game, seq)
);
CREATE TABLE tokens (
	token      TEXT PRIMARY KEY,
	game       BIGINT NOT NULL,
	side       INT NOT NULL,
	tournament BIGINT NOT NULL DEFAULT 0,
	doc        JSONB NOT NULL
);
CREATE TABLE seen_message_ids (
	game       BIGINT NOT NULL,
	side       INT NOT NULL,
	message_id TEXT NOT NULL,
	at         TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (game, side, message_id)
);
CREATE TABLE tournaments (
	id        BIGINT PRIMARY KEY,
	name      TEXT NOT NULL,
	variant   TEXT NOT NULL,
	organizer TEXT NOT NULL DEFAULT '',
	created   TIMESTAMPTZ NOT NULL,
	updated   TIMESTAMPTZ NOT NULL,
	doc       JSONB NOT NULL
);
CREATE TABLE players (
	address TEXT PRIMARY KEY,
	doc     JSONB NOT NULL
);
CREATE TABLE rate_limits (
	address TEXT PRIMARY KEY,
	times   JSONB NOT NULL
);
CREATE TABLE inbox (
	mailbox     TEXT NOT NULL,
	uidvalidity BIGINT NOT NULL,
	uid         BIGINT NOT NULL,
	content     TEXT NOT NULL DEFAULT '',
	fetched     TIMESTAMPTZ NOT NULL,
	attempts    INT NOT NULL DEFAULT 0,
	quarantined TIMESTAMPTZ,
	error       TEXT NOT NULL DEFAULT '',
	doc         JSONB NOT NULL,
	raw         BYTEA NOT NULL,
	PRIMARY KEY (mailbox, uidvalidity, uid, content)
);
CREATE TABLE processed (
	mailbox     TEXT NOT NULL,
	uidvalidity BIGINT NOT NULL,
	uid         BIGINT NOT NULL,
	content     TEXT NOT NULL DEFAULT '',
	at          TIMESTAMPTZ NOT NULL,
	fingerprint TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (mailbox, uidvalidity, uid, content)
);
CREATE TABLE outbox (
	id         BIGINT PRIMARY KEY,
	message_id TEXT NOT NULL,
	game       BIGINT NOT NULL DEFAULT 0,
	kind       TEXT NOT NULL DEFAULT '',
	created    TIMESTAMPTZ NOT NULL,
	doc        JSONB NOT NULL,
	raw        BYTEA NOT NULL
);
CREATE TABLE sent (
	id         BIGINT PRIMARY KEY,
	message_id TEXT NOT NULL,
	game       BIGINT NOT NULL DEFAULT 0,
	kind       TEXT NOT NULL DEFAULT '',
	recipients TEXT NOT NULL DEFAULT '',
	created    TIMESTAMPTZ NOT NULL,
	sent       TIMESTAMPTZ,
	failed     BOOLEAN NOT NULL DEFAULT false,
	doc        JSONB NOT NULL,
	raw        BYTEA
);
CREATE INDEX sent_game ON sent (game, id);
`,
	2: `CREATE INDEX processed_at ON processed (at);`,
	// 3: the rated players, for the rating lists (Tx.EachRatedPlayer).
	3: `CREATE INDEX players_rated ON players (address) WHERE doc ? 'ratings';`,
	// 4: who played a side of a game before the organizer's REPLACE (Game.Former), so that
	// GamesOf and GamesOfLocal still list the game under him.
	4: `
CREATE TABLE former_players (
	game    BIGINT NOT NULL,
	address TEXT NOT NULL,
	PRIMARY KEY (game, address)
);
CREATE INDEX former_players_address ON former_players (lower(address), game);
CREATE INDEX former_players_local ON former_players (split_part(lower(address), '@', 1), game);
`,
	// 5: the ratings as rows, as bbolt's ratings-by-rating: a rating list reads its page by the
	// index ratings_order, the games in which someone is rated by a walk down it, and each
	// game's count of rated players from counters ('rated/<game>'), kept as ratings come and go.
	5: `
CREATE TABLE ratings (
	address TEXT NOT NULL,
	variant TEXT NOT NULL,
	rating  FLOAT8 NOT NULL,
	entry   JSONB NOT NULL,
	PRIMARY KEY (address, variant)
);
CREATE INDEX ratings_order ON ratings (variant, rating DESC, address);
INSERT INTO ratings (address, variant, rating, entry)
	SELECT p.address, r->>'variant', (r->>'rating')::FLOAT8, r - 'history'
	FROM players p, jsonb_array_elements(p.doc->'ratings') r WHERE p.doc ? 'ratings'
	ON CONFLICT (address, variant) DO NOTHING;
INSERT INTO counters (name, value) SELECT 'rated/' || variant, count(*) FROM ratings GROUP BY variant
	ON CONFLICT (name) DO UPDATE SET value = excluded.value;
`,
	// 6: the games by state (status and game) for the lists and their counts, as bbolt's
	// by-state index: the counts in counters ('games/<status>/<game>'), kept as games begin and
	// end; a game's variant alone is filtered by games_variant. And the tournaments by name,
	// for the archivist's queries.
	6: `
INSERT INTO counters (name, value) SELECT 'games/' || status || '/' || variant, count(*) FROM games GROUP BY status, variant
	ON CONFLICT (name) DO UPDATE SET value = excluded.value;
CREATE INDEX games_variant ON games (variant, id);
CREATE INDEX tournaments_name ON tournaments (name);
`,
	// 7: the outbox's ids from a sequence (every mail sent took them from one row of counters,
	// which every mail's transaction then updated: concurrent mails conflicted on it); the
	// Message-IDs seen, forgotten with the processed keys, by their time.
	7: `
CREATE SEQUENCE outbox_ids;
SELECT setval('outbox_ids', greatest(v, 1), v > 0) FROM (SELECT greatest(
	coalesce((SELECT value FROM counters WHERE name = 'outbox'), 0),
	coalesce((SELECT max(id) FROM outbox), 0), coalesce((SELECT max(id) FROM sent), 0)) AS v) x;
DELETE FROM counters WHERE name = 'outbox';
CREATE INDEX seen_message_ids_at ON seen_message_ids (at);
`,
	// 8: a player's IF moves logged as EventIf, and the moves they played from SourceIf ("if"
	// both), no longer as "conditional" (bbolt's schema 8).
	8: `
UPDATE events SET kind = 'if' WHERE kind = 'conditional';
UPDATE events SET source = 'if' WHERE source = 'conditional';
`,
	// 9: the challenges players make by mail (issue 37); the partial indexes hold the open
	// ones, as bbolt's indexes do.
	9: `
CREATE TABLE challenges (
	id         BIGINT PRIMARY KEY,
	open       BOOLEAN NOT NULL,
	challenger TEXT NOT NULL,
	invited    TEXT NOT NULL,
	expires    TIMESTAMPTZ NOT NULL,
	doc        JSONB NOT NULL
);
CREATE INDEX challenges_open_any ON challenges (id) WHERE open AND invited = '';
CREATE INDEX challenges_open_challenger ON challenges (challenger, id) WHERE open;
CREATE INDEX challenges_open_invited ON challenges (invited, id) WHERE open;
CREATE INDEX challenges_open_expires ON challenges (expires, id) WHERE open;
`,
	// 10: the raw mails and the games' records compressed with lz4, not pglz: a move writes
	// two mails twice (outbox, then sent) and its game, and lz4 compresses at a fraction of
	// pglz's CPU. Left as they are on a server built without lz4.
	10: `
DO $$ BEGIN
	ALTER TABLE outbox ALTER COLUMN raw SET COMPRESSION lz4;
	ALTER TABLE sent ALTER COLUMN raw SET COMPRESSION lz4;
	ALTER TABLE inbox ALTER COLUMN raw SET COMPRESSION lz4;
	ALTER TABLE games ALTER COLUMN doc SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN NULL;
END $$;
`,
	// 11: the games of a status, by id, for the list of one status read from a point
	// (GameIDsFrom): games_state orders them by game first.
	11: `CREATE INDEX IF NOT EXISTS games_status ON games (status, id);`,
}
