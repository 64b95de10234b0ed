package store

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"

	kflate "github.com/klauspost/compress/flate"
)

// A sent mail's raw copy, while it is kept (SentRawRetention), is compressed in the bbolt
// file: a mail's text and HTML parts, its diagrams and the game so far shrink about three to
// five times, and so do the pages a start after a crash walks (and a backup copies).
// PostgreSQL compresses large values itself (TOAST): its raw column holds the mail as is.

// packRaw is how a raw copy is kept in bSentRaw: a 0 byte (no mail begins with one), then the
// mail compressed (DEFLATE, fastest). A value that begins otherwise is a copy kept before
// copies were compressed, kept as it is.
func packRaw(raw []byte) ([]byte, error) {
	w := getFlater()
	defer putFlater(w)
	w.buf.Reset()
	w.buf.WriteByte(0)
	w.w.Reset(&w.buf)
	if _, err := w.w.Write(raw); err != nil {
		return nil, fmt.Errorf("compress: %w", err)
	}
	if err := w.w.Close(); err != nil {
		return nil, fmt.Errorf("compress: %w", err)
	}
	return bytes.Clone(w.buf.Bytes()), nil
}

// unpackRaw is the mail packRaw kept as v, in memory of its own.
func unpackRaw(v []byte) ([]byte, error) {
	if len(v) == 0 || v[0] != 0 {
		return bytes.Clone(v), nil
	}
	out, err := io.ReadAll(flate.NewReader(bytes.NewReader(v[1:])))
	if err != nil {
		return nil, fmt.Errorf("decompress: %w", err)
	}
	return out, nil
}

// flater is a reusable compressor (making one allocates its tables). It writes DEFLATE with
// klauspost/compress, which at its fastest level compresses a mail about twice as fast as the
// standard library's and as small (a move's mail: 3.7 µs a KB against 8.1 µs); the standard
// library reads it back (unpackRaw), as it reads the copies kept before.
type flater struct {
	w   *kflate.Writer
	buf bytes.Buffer
}

// flaters keeps a few compressors for good: a sync.Pool is emptied by the garbage
// collector, and a compressor made again costs more than the mail it compresses (about
// 600 KB to allocate and clear).
var flaters = make(chan *flater, 4)

func getFlater() *flater {
	select {
	case w := <-flaters:
		return w
	default:
		w, _ := kflate.NewWriter(io.Discard, kflate.BestSpeed)
		return &flater{w: w}
	}
}

// putFlater keeps w for the next mail, unless enough are kept; a buffer grown for a big
// mail is not kept.
func putFlater(w *flater) {
	if w.buf.Cap() > 64<<10 {
		w.buf = bytes.Buffer{}
	}
	select {
	case flaters <- w:
	default:
	}
}
