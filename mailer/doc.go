// Package mailer moves bytes between the mail servers and the store: Intake fetches new mail
// over IMAP (IDLE, with polling as the fallback) into the store's inbox and only then moves it
// to a Processed folder; Sender drains the store's outbox over SMTP. It knows nothing of games.
//
// Delivery is not policy (chasquid): Transport only sends; Policy decides, in one tested
// function, whether a failure is retried and when. A permanent failure is a *PermanentError.
// A mail leaves the outbox only after the server accepted it, so delivery is at least once;
// each mail carries a stable Message-ID.
package mailer
