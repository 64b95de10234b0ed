package store

import (
	"fmt"
	"time"
)

// Copy moves a whole store from one backend to the other (refereed migrate): every game with
// its log, tokens and due moment (as it was, not made due anew), tournaments, players, challenges, the inbox and the processed set, the
// outbox and sent mail, the seen Message-IDs, counters and settings, under the same ids. The
// rate limits (minutes of memory) and the lease are not copied. dst must hold no game and no
// tournament; src is only read. Work is done in transactions of a page of games at a time.

// copier is what each backend offers Copy beyond the Tx methods: every record of the kinds
// the Tx methods do not list, and the writing of a record as it was (its id, its times).
type copier interface {
	putGameAs(g *Game) error
	putTournamentAs(tr *Tournament) error
	putOutboxAs(m OutMail) error
	putChallengeAs(c *Challenge) error
	eachToken(fn func(token string, ref GameRef) error) error
	// dueOf is when game id falls due for the deadline check; zero: never, until a command
	// marks it.
	dueOf(id uint64) (time.Time, error)
	eachPlayer(fn func(rec *PlayerRecord) error) error
	eachSeen(fn func(id uint64, side int, messageID string, at time.Time) error) error
	putSeen(id uint64, side int, messageID string, at time.Time) error
	eachProcessed(fn func(k InboxKey, at time.Time, fingerprint string) error) error
	putProcessed(k InboxKey, at time.Time, fingerprint string) error
	eachSent(after uint64, max int, fn func(m OutMail) error) error
	// eachMeta lists the counters ("count/...") and settings ("setting/...", "sent-pruned"),
	// their values as decimal numbers or text; putMeta writes one.
	eachMeta(fn func(key, value string) error) error
	putMeta(key, value string) error
}

// CopyCounts is what Copy copied.
type CopyCounts struct {
	Games, Events, Tournaments, Inbox, Processed, Outbox, Sent int
}

// copyPage is how many games (or sent mails) one transaction of Copy writes.
const copyPage = 200

// Copy copies src into the empty store dst.
func Copy(dst, src *DB) (CopyCounts, error) {
	var n CopyCounts
	empty := true
	if err := dst.View(func(tx *Tx) error {
		games, err := tx.GameCount()
		if err != nil {
			return err
		}
		tournaments, err := tx.TournamentCount()
		empty = games == 0 && tournaments == 0
		return err
	}); err != nil {
		return n, fmt.Errorf("store: copy: %w", err)
	}
	if !empty {
		return n, fmt.Errorf("store: copy: %s is not empty: copy into a new store", dst.Path())
	}
	type gameLog struct {
		g      Game
		events []Event
		due    time.Time
	}
	var page []gameLog
	flush := func() error {
		err := dst.Update(func(tx *Tx) error {
			c := tx.ops.(copier)
			for _, gl := range page {
				g := gl.g
				if err := c.putGameAs(&g); err != nil {
					return err
				}
				for _, e := range gl.events {
					seq, err := tx.AppendEvent(g.ID, e)
					if err != nil {
						return err
					}
					if seq != e.Seq {
						return fmt.Errorf("game %d: event %d copied as %d", g.ID, e.Seq, seq)
					}
				}
				// Due as it was: the first start on the copy does no more than any start.
				if err := tx.SetDue(g.ID, gl.due); err != nil {
					return err
				}
			}
			return nil
		})
		for _, gl := range page {
			n.Games++
			n.Events += len(gl.events)
		}
		page = page[:0]
		return err
	}
	err := src.View(func(stx *Tx) error {
		return stx.EachGame(func(g *Game) error {
			events, err := stx.Events(g.ID)
			if err != nil {
				return err
			}
			due, err := stx.ops.(copier).dueOf(g.ID)
			if err != nil {
				return err
			}
			page = append(page, gameLog{*g, events, due})
			if len(page) < copyPage {
				return nil
			}
			return flush()
		})
	})
	if err == nil && len(page) > 0 {
		err = flush()
	}
	if err != nil {
		return n, fmt.Errorf("store: copy games: %w", err)
	}
	// The rest is small beside the games, or paged: one transaction each but sent mail.
	err = src.View(func(stx *Tx) error {
		sc := stx.ops.(copier)
		return dst.Update(func(tx *Tx) error {
			c := tx.ops.(copier)
			n.Tournaments, n.Processed, n.Inbox, n.Outbox = 0, 0, 0, 0 // a transaction run again counts again
			err := stx.EachTournament(func(tr *Tournament) error {
				n.Tournaments++
				return c.putTournamentAs(tr)
			})
			if err != nil {
				return err
			}
			steps := []func() error{
				func() error { return sc.eachToken(tx.PutTokenRef) },
				func() error { return sc.eachPlayer(tx.PutPlayerRecord) },
				func() error { return stx.EachChallenge(c.putChallengeAs) },
				func() error { return sc.eachSeen(c.putSeen) },
				func() error {
					return sc.eachProcessed(func(k InboxKey, at time.Time, fp string) error { n.Processed++; return c.putProcessed(k, at, fp) })
				},
				func() error {
					return stx.InboxAll(func(m InboundMail) error {
						n.Inbox++
						ok, err := tx.PutInbound(m)
						if err == nil && !ok {
							err = fmt.Errorf("inbox %v copied twice", m.Key)
						}
						return err
					})
				},
				func() error {
					out, err := stx.Outbox()
					for _, m := range out {
						if err == nil {
							err = c.putOutboxAs(m)
							n.Outbox++
						}
					}
					return err
				},
				func() error { return sc.eachMeta(c.putMeta) },
			}
			for _, step := range steps {
				if err := step(); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return n, fmt.Errorf("store: copy: %w", err)
	}
	for after := uint64(0); ; {
		var sent []OutMail
		if err := src.View(func(stx *Tx) error {
			return stx.ops.(copier).eachSent(after, copyPage, func(m OutMail) error { sent = append(sent, m); return nil })
		}); err != nil {
			return n, fmt.Errorf("store: copy sent mail: %w", err)
		}
		if len(sent) == 0 {
			return n, nil
		}
		if err := dst.Update(func(tx *Tx) error {
			for _, m := range sent {
				if err := tx.ops.(copier).putOutboxAs(m); err != nil {
					return err
				}
				if err := tx.Done(m); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return n, fmt.Errorf("store: copy sent mail: %w", err)
		}
		n.Sent += len(sent)
		after = sent[len(sent)-1].ID
	}
}
