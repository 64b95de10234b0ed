package localmail

import (
	"fmt"
	"sync"
	"syscall"
	"time"

	"github.com/emersion/go-smtp"
)

// The disk a logged-in player may fill (issue 36): mail between people stops when the disk's
// free space falls below a reserve, while mail to the referee and the referee's own still
// pass, so that no game stops; and one address submits a bounded volume a day.

// DefaultReserve is the reserve for a disk of size bytes: a tenth of it, at most 1 GiB.
func DefaultReserve(size int64) int64 { return min(size/10, 1<<30) }

// DefaultDailyPerSender is the volume one address may submit a day when the Server says none.
const DefaultDailyPerSender = 200 << 20

// DiskState is how full the disk of the mail is.
type DiskState struct {
	Size, Free, Reserve int64 // bytes
	Held                int64 // the bytes of the mail the server keeps
}

func (d DiskState) String() string {
	return fmt.Sprintf("%s free of %s, reserve %s, mail held %s", mib(d.Free), mib(d.Size), mib(d.Reserve), mib(d.Held))
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// Disk says how full the disk of the mail is.
func (s *Server) Disk() DiskState {
	var st syscall.Statfs_t
	var d DiskState
	if err := syscall.Statfs(s.disk.dir, &st); err == nil {
		d.Size, d.Free = int64(st.Blocks)*st.Bsize, int64(st.Bavail)*st.Bsize
	}
	d.Reserve = s.reserve(d.Size)
	s.mu.Lock()
	for _, u := range s.users {
		d.Held += u.size()
	}
	s.mu.Unlock()
	return d
}

func (s *Server) reserve(size int64) int64 {
	switch {
	case s.Reserve < 0:
		return 0
	case s.Reserve > 0:
		return s.Reserve
	}
	return DefaultReserve(size)
}

// belowReserve reports whether the disk has less free space than the reserve (and size more
// bytes would not fit above it).
func (s *Server) belowReserve(size int64) bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs(s.disk.dir, &st); err != nil {
		return false // unknown: the write itself will say
	}
	free := int64(st.Bavail) * st.Bsize
	return free-size < s.reserve(int64(st.Blocks)*st.Bsize)
}

var errReserve = &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 3, 1}, Message: "Insufficient system storage: mail between players waits until space is freed; mail to the referee still passes"}

// senderVolume counts the bytes each address submitted today (UTC). It lives in memory: a
// restart forgets the day's counts, which bounds the volume per run of the daemon.
type senderVolume struct {
	mu    sync.Mutex
	day   string
	bytes map[string]int64
}

// add counts n bytes from addr and reports whether they fit in limit (they are not counted
// when they do not).
func (v *senderVolume) add(addr string, n, limit int64, now time.Time) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if day := now.UTC().Format("2006-01-02"); day != v.day || v.bytes == nil {
		v.day, v.bytes = day, map[string]int64{}
	}
	if limit > 0 && v.bytes[addr]+n > limit {
		return false
	}
	v.bytes[addr] += n
	return true
}

func (s *Server) dailyLimit() int64 {
	switch {
	case s.DailyPerSender < 0:
		return 0
	case s.DailyPerSender > 0:
		return s.DailyPerSender
	}
	return DefaultDailyPerSender
}

var errDaily = &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 5, 3}, Message: "You have sent as much mail as one address may send in a day: try again tomorrow"}
