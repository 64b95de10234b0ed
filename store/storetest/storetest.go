// Package storetest gives tests a fresh store on either backend: a bbolt file in the test's
// temporary directory, or a schema of its own in the PostgreSQL database that
// REFEREED_TEST_PG names (test/lib/pg-up.sh starts one). The same suites run on both:
// the store's own on every backend there is, the referee's on the one REFEREED_TEST_STORE
// names (bolt unless it says postgres).
package storetest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Backends are the backends a store test runs on: bolt, and postgres when REFEREED_TEST_PG
// names a database. Under CI (CI=true) with REFEREED_TEST_STORE=postgres, a missing database
// fails the test rather than skipping it.
func Backends() []string {
	if os.Getenv("REFEREED_TEST_PG") != "" {
		return []string{"bolt", "postgres"}
	}
	return []string{"bolt"}
}

// Default is the backend the referee's suites run on: REFEREED_TEST_STORE, bolt unless set.
func Default() string {
	if os.Getenv("REFEREED_TEST_STORE") == "postgres" {
		return "postgres"
	}
	return "bolt"
}

// Postgres is a fresh PostgreSQL store's URL for a test that needs one. Without
// REFEREED_TEST_PG the test is skipped, or fails under CI (CI=true), where the database must be.
func Postgres(t testing.TB) string {
	t.Helper()
	if os.Getenv("REFEREED_TEST_PG") == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("storetest: CI without REFEREED_TEST_PG: .ci/run starts PostgreSQL (test/lib/pg-up.sh) and names it")
		}
		t.Skip("no PostgreSQL: bash test/lib/pg-up.sh starts one; REFEREED_TEST_PG=$(cat /tmp/refereed-pgci/url)")
	}
	return Location(t, "postgres")
}

var schemas atomic.Int64

// Location is where a fresh, empty store of backend lives: a file path or a database URL
// (a schema made for this test and dropped after it).
func Location(t testing.TB, backend string) string {
	t.Helper()
	if backend != "postgres" {
		return filepath.Join(t.TempDir(), "refereed.db")
	}
	base := os.Getenv("REFEREED_TEST_PG")
	if base == "" {
		t.Fatal("storetest: REFEREED_TEST_PG names no database (bash test/lib/pg-up.sh starts one; its URL is in /tmp/refereed-pgci/url)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("t%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9, schemas.Add(1))
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		t.Fatalf("storetest: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if conn, err := pgx.Connect(ctx, base); err == nil {
			conn.Exec(ctx, "DROP SCHEMA "+name+" CASCADE")
			conn.Close(ctx)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}

var databases atomic.Int64

// Database is a fresh, empty database's URL and name, for a test that changes what a schema
// cannot hold (ALTER DATABASE): dropped after the test. Skipped as Postgres is.
func Database(t testing.TB) (loc, name string) {
	t.Helper()
	Postgres(t) // skips without a database
	base := os.Getenv("REFEREED_TEST_PG")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	defer conn.Close(ctx)
	name = fmt.Sprintf("d%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9, databases.Add(1))
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("storetest: %v", err)
	}

	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if conn, err := pgx.Connect(ctx, base); err == nil {
			conn.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)")
			conn.Close(ctx)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	u.Path = "/" + name
	return u.String(), name
}

// Exec runs statement on the database REFEREED_TEST_PG names (ALTER DATABASE, for instance).
func Exec(t testing.TB, statement string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, os.Getenv("REFEREED_TEST_PG"))
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, statement); err != nil {
		t.Fatalf("storetest: %s: %v", statement, err)
	}
}

// Lock holds table of the store at loc (a URL Postgres or Database gave) locked against
// every reader and writer (ACCESS EXCLUSIVE, in a transaction left open), as a DBA's
// maintenance would, until the function it returns is called (at the latest, at the test's
// end).
func Lock(t testing.TB, loc, table string) (release func()) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, loc)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	tx, err := conn.Begin(ctx)
	if err == nil {
		_, err = tx.Exec(ctx, "LOCK TABLE "+pgx.Identifier{table}.Sanitize()+" IN ACCESS EXCLUSIVE MODE")
	}
	if err != nil {
		conn.Close(ctx)
		t.Fatalf("storetest: lock %s: %v", table, err)
	}
	done := false
	release = func() {
		if !done {
			done = true
			tx.Rollback(ctx)
			conn.Close(ctx)
		}
	}
	t.Cleanup(release)
	return release
}
