package sqlstore

import (
	"context"
	"database/sql"
	"testing"
)

// Every character before which tagWords may put a tag is one FTS5's
// tokenizer keeps inside a word, so tagged text makes the same words, at
// the same positions, as the plain text snippet() reads (checked over the
// Basic Multilingual Plane; the tokenizer's data ends with Unicode 6.1).
func TestTokenCharsAreTokenizerWords(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')`); err != nil {
		t.Fatal(err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO t (rowid, x) VALUES (?, ?)`)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for c := rune(1); c <= 0xFFFF; c++ {
		if (c >= 0xD800 && c <= 0xDFFF) || !isTokenChar(c) {
			continue
		}
		if _, err := st.ExecContext(ctx, c, "a"+string(c)+"b"); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var bad []rune
	rows, err := db.QueryContext(ctx, `SELECT doc FROM v GROUP BY doc HAVING count(*) <> 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var c int64
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		bad = append(bad, rune(c))
	}
	var docs int
	if err := db.QueryRowContext(ctx, `SELECT count(DISTINCT doc) FROM v`).Scan(&docs); err != nil || docs != n {
		t.Fatalf("%d of %d texts made words (%v)", docs, n, err)
	}
	if len(bad) > 0 {
		t.Fatalf("the tokenizer separates words at %U", bad)
	}
	// Tagged words are the plain words with the tag in front.
	tag, _ := searchTag(0x123456)
	if got, want := tagWords(tag, "LDL-C fell 38.5% (p<0.001), café — naïve 日本語 🙂"), tag+"LDL-"+tag+"C "+tag+"fell "+tag+"38."+tag+"5% ("+tag+"p<"+tag+"0."+tag+"001), "+tag+"café — "+tag+"naïve "+tag+"日本語 🙂"; got != want {
		t.Fatalf("tagWords = %q, want %q", got, want)
	}
}
