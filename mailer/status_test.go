package mailer_test

import "github.com/emersion/go-imap/v2"

var imapStatus = imap.StatusOptions{NumMessages: true}
