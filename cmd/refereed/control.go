package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/refereed/refereed/store"
)

// The control socket lets the admin commands work while the daemon holds the store's file
// lock: a command finds <data>/refereed.sock, sends its arguments, and the daemon runs it on
// its own open store and sends back the output and exit code.

const controlName = "refereed.sock"

type controlRequest struct {
	Args []string `json:"args"`
}

type controlReply struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Code   int    `json:"code"`
}

// adminCommands are the subcommands that may go through the control socket.
var adminCommands = map[string]bool{"new": true, "list": true, "show": true, "export": true, "backup": true, "inbox": true, "tournament": true, "mailpass": true, "ratings": true}

// dataDirOf finds the --data value in args without parsing the rest.
func dataDirOf(args []string) string {
	for i, a := range args {
		for _, p := range []string{"--data=", "-data="} {
			if len(a) > len(p) && a[:len(p)] == p {
				return a[len(p):]
			}
		}
		if (a == "--data" || a == "-data") && i+1 < len(args) {
			return args[i+1]
		}
	}
	return "refereed-data"
}

// forward sends an admin command to a running daemon. ok is false when none answers.
func (m *Main) forward(args []string) (code int, ok bool) {
	sock := filepath.Join(dataDirOf(args[1:]), controlName)
	if args[0] == "backup" {
		args = absoluteFile(args)
	}
	conn, err := net.DialTimeout("unix", sock, time.Second)
	if err != nil {
		return 0, false
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Minute))
	if err := json.NewEncoder(conn).Encode(controlRequest{Args: args}); err != nil {
		return 0, false
	}
	var rep controlReply
	if err := json.NewDecoder(bufio.NewReader(conn)).Decode(&rep); err != nil {
		fmt.Fprintf(m.Stderr, "refereed: the running daemon did not answer: %v\n", err)
		return exitUsage, true
	}
	fmt.Fprint(m.Stdout, rep.Stdout)
	fmt.Fprint(m.Stderr, rep.Stderr)
	return rep.Code, true
}

// absoluteFile makes the FILE of "backup FILE" absolute: the daemon, which writes it, may run
// in another directory.
func absoluteFile(args []string) []string {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addDataFlags(fs)
	if parseInterspersed(fs, args[1:]) != nil || fs.NArg() != 1 || filepath.IsAbs(fs.Arg(0)) {
		return args
	}
	abs, err := filepath.Abs(fs.Arg(0))
	if err != nil {
		return args
	}
	out := slices.Clone(args)
	for i := len(out) - 1; i > 0; i-- {
		if out[i] == fs.Arg(0) {
			out[i] = abs
			break
		}
	}
	return out
}

// serveControl answers admin commands on the socket until ctx ends; changed is called after
// each command (a new game queues mail to deliver).
func serveControl(ctx context.Context, dir string, db *store.DB, changed func()) (func(), error) {
	sock := filepath.Join(dir, controlName)
	if conn, err := net.DialTimeout("unix", sock, 200*time.Millisecond); err == nil {
		conn.Close()
		return nil, errors.New("another refereed is serving this data directory")
	}
	os.Remove(sock) // left by a daemon that was killed
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	os.Chmod(sock, 0o600)
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				conn.SetDeadline(time.Now().Add(5 * time.Minute))
				var req controlRequest
				if err := json.NewDecoder(conn).Decode(&req); err != nil || len(req.Args) == 0 || !adminCommands[req.Args[0]] {
					json.NewEncoder(conn).Encode(controlReply{Stderr: "refereed: not an admin command\n", Code: exitUsage})
					return
				}
				var out, errb bytes.Buffer
				sub := &Main{Stdout: &out, Stderr: &errb, db: db}
				code := sub.Run(ctx, req.Args)
				json.NewEncoder(conn).Encode(controlReply{Stdout: out.String(), Stderr: errb.String(), Code: code})
				changed()
			}()
		}
	}()
	return func() { ln.Close(); os.Remove(sock) }, nil
}
