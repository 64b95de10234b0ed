package store

// Ahead names what a transaction is about to read, so that a store that pays a round trip a
// read (PostgreSQL) reads it all in its first one, with BEGIN; a bbolt file has nothing to
// save and ignores it. The answers are the same with it as without: a transaction may read
// what it did not name, and need not read what it named.
type Ahead struct {
	// Mails are the inbound mails the transaction handles.
	Mails []AheadMail
	// Known are the inbox keys whose Known it asks.
	Known []InboxKey
	// Letters is how many mails it may queue (Enqueue): their ids are taken at once.
	Letters int
}

// AheadMail is one inbound mail a transaction handles: whether its key was processed
// (Processed), the game its token names (TokenRef, with the game, its players' records and
// its log) and whether that game's side saw its Message-ID (SeenMessageID).
type AheadMail struct {
	Key       InboxKey // the zero key: none
	Token     string   // "": none
	MessageID string   // "": none
}

// UpdateAhead is Update with what fn will read named ahead.
func (db *DB) UpdateAhead(a Ahead, fn func(*Tx) error) error {
	if db.pg != nil {
		return db.pg.update(db.Now, &a, fn)
	}
	return db.Update(fn)
}

// ViewAhead is View with what fn will read named ahead.
func (db *DB) ViewAhead(a Ahead, fn func(*Tx) error) error {
	if db.pg != nil {
		return db.pg.view(db.Now, &a, fn)
	}
	return db.View(fn)
}
