package history

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// summarySection builds a small history with summaries (a dense key, a
// sparse one, a dropped one) and returns the index path and the section's
// bytes.
func summarySection(t testing.TB) (string, []byte) {
	s := summaryScenario(rand.New(rand.NewPCG(7, 7)))
	path := buildScenario(t, s, Options{Summarise: func(*core.AttributeTree, core.Key) bool { return true }})
	tr, err := Open(path, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	r, err := tr.Section(SectionSummary)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}

// readAllSummaries decodes a section and every run of every key at every
// level, as Check and queries would.
func readAllSummaries(b []byte) error {
	x, err := decodeSummaryIndex(b)
	if err != nil {
		return err
	}
	for k := range x.keys {
		e, ok, err := x.entry(core.Key(k))
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		for li := range x.levels {
			runs, at, err := x.level(e, li)
			if err != nil {
				return err
			}
			if _, err := x.readRuns(runs, x.levels[at], x.start, x.end, func(core.SummaryRun) bool { return true }); err != nil {
				return err
			}
		}
	}
	return x.checkStructure()
}

// FuzzDecodeSummary decodes arbitrary summary sections: errors, never a
// panic, a hang or an allocation from an unchecked length.
func FuzzDecodeSummary(f *testing.F) {
	_, b := summarySection(f)
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add([]byte(summaryMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = readAllSummaries(b)
	})
}

// TestSummaryDamage flips every byte of the summary section and truncates
// it at every length: each damaged file answers Summary with an error, and
// each truncated section fails to decode.
func TestSummaryDamage(t *testing.T) {
	path, sec := summarySection(t)
	if err := readAllSummaries(sec); err != nil {
		t.Fatalf("intact section: %v", err)
	}
	for n := range len(sec) {
		if err := readAllSummaries(sec[:n]); err == nil {
			t.Fatalf("section cut at %d of %d bytes decodes", n, len(sec))
		}
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Open(path, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	off := -1
	for _, s := range tr.secs {
		if s.name == SectionSummary {
			off = int(s.off)
		}
	}
	tr.Close()
	damaged := path + ".damaged"
	for i := range len(sec) {
		b := append([]byte(nil), file...)
		b[off+i] ^= 1 << (i % 8)
		if err := os.WriteFile(damaged, b, 0o644); err != nil {
			t.Fatal(err)
		}
		tr, err := Open(damaged, OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = tr.Summary(context.Background(), allKeys(tr), 0, core.MaxTime, core.MaxTime, func(core.Key, core.SummaryRun) bool { return true })
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d of the section flipped: Summary says %v", i, err)
		}
		if err := tr.Check(); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d of the section flipped: Check says %v", i, err)
		}
		tr.Close()
	}
}
