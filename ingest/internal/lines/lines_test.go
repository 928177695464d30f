package lines

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

func TestCheckpointRoundTripAndDamage(t *testing.T) {
	rng := coretest.Rand(t)
	layout := Layout(123, 456)
	for range 200 {
		cp := Checkpoint{Off: rng.Int64N(1 << 40), LineNo: 1 + rng.Int64N(1<<30), Last: rng.Int64() - 1<<62}
		b := cp.Append([]byte("prefix"), "xy", layout)[len("prefix"):]
		got, err := Decode(b, "xy", layout)
		if err != nil || got != cp {
			t.Fatalf("Decode(Append(%+v)) = %+v, %v", cp, got, err)
		}
		bad := append([]byte(nil), b...)
		bad[rng.IntN(len(bad))] ^= byte(1 + rng.IntN(255))
		if _, err := Decode(bad, "xy", layout); !errors.Is(err, ErrBadCheckpoint) {
			t.Fatalf("Decode(damaged %x) = %v, want ErrBadCheckpoint", bad, err)
		}
		if _, err := Decode(b, "xy", Layout(1)); !errors.Is(err, ErrBadCheckpoint) {
			t.Fatalf("Decode with another layout: %v", err)
		}
		if _, err := Decode(b[:rng.IntN(len(b))], "xy", layout); !errors.Is(err, ErrBadCheckpoint) {
			t.Fatalf("Decode(truncated): %v", err)
		}
	}
}

func TestReaderLinesOffsetsAndLongLines(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	text := "one\r\n" + strings.Repeat("x", 100) + "\nthree\nlast-without-newline"
	os.WriteFile(p, []byte(text), 0o644)
	r, err := Open(p, 32)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var long []int64
	r.Long = func(lineNo, off int64) { long = append(long, lineNo, off) }
	type got struct {
		s           string
		lineNo, off int64
	}
	var all []got
	for {
		b, n, off, err := r.Line()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, got{string(b), n, off})
	}
	want := []got{{"one", 1, 0}, {"three", 3, 106}, {"last-without-newline", 4, 112}}
	if len(all) != len(want) {
		t.Fatalf("lines = %+v, want %+v", all, want)
	}
	for i := range want {
		if all[i] != want[i] {
			t.Errorf("line %d = %+v, want %+v", i, all[i], want[i])
		}
	}
	if len(long) != 2 || long[0] != 2 || long[1] != 5 {
		t.Errorf("long lines reported %v, want line 2 at offset 5", long)
	}
	if err := r.SeekLine(106, 3); err != nil {
		t.Fatal(err)
	}
	if b, n, _, _ := r.Line(); string(b) != "three" || n != 3 {
		t.Errorf("after Seek: %q line %d", b, n)
	}
	if err := r.SeekLine(1<<40, 1); !errors.Is(err, ErrBadCheckpoint) {
		t.Errorf("Seek past the end = %v", err)
	}
}

func TestWarningsBoundAndClose(t *testing.T) {
	w := Warnings{Max: 2}
	for range 5 {
		w.Add(core.Warning{Kind: "k", Stream: 3})
	}
	w.Close()
	w.Add(core.Warning{Kind: "after"})
	l := w.List()
	if len(l) != 3 || l[2].Kind != "more-warnings" || l[2].Count != 3 || l[0].Stream != -1 {
		t.Errorf("warnings = %+v", l)
	}
}

// TestReaderCancelled: a cancelled context stops Line within cancelEvery
// lines.
func TestReaderCancelled(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte(strings.Repeat("line\n", 5*cancelEvery)), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(p, 4096)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r.Context = ctx
	for range cancelEvery / 2 {
		if _, _, _, err := r.Line(); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	for n := 0; ; n++ {
		_, _, _, err := r.Line()
		if errors.Is(err, context.Canceled) {
			break
		}
		if err != nil || n > cancelEvery {
			t.Fatalf("after cancel, %d lines read, then %v", n, err)
		}
	}
}
