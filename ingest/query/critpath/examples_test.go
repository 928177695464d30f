package critpath

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// The guide's worked examples (§5), as ftrace text in testdata/*.txt, with
// their expected paths in the matching .want file: "path TID FROM TO"
// then one "START END TID STATE [REASON]" line per segment, times in µs.
func TestGuideExamples(t *testing.T) {
	wants, _ := filepath.Glob("testdata/*.want")
	if len(wants) == 0 {
		t.Fatal("no testdata/*.want")
	}
	for _, w := range wants {
		name := strings.TrimSuffix(filepath.Base(w), ".want")
		t.Run(name, func(t *testing.T) {
			h := indexFtrace(t, strings.TrimSuffix(w, ".want")+".txt")
			for _, c := range readWant(t, w) {
				p, err := Compute(context.Background(), h, Worker{TID: c.tid, CPU: -1}, c.from*1000, c.to*1000, Options{})
				if err != nil {
					t.Fatalf("path of %d: %v", c.tid, err)
				}
				if got := formatSegments(p.Segments); got != c.segments {
					t.Errorf("path of %d over [%d, %d) µs:\n got\n%s want\n%s", c.tid, c.from, c.to, got, c.segments)
				}
				if p.Truncated {
					t.Errorf("path of %d truncated", c.tid)
				}
			}
		})
	}
}

type wantPath struct {
	tid      int32
	from, to core.Time
	segments string
}

func readWant(t *testing.T, path string) []wantPath {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []wantPath
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "path "):
			var c wantPath
			if _, err := fmt.Sscanf(line, "path %d %d %d", &c.tid, &c.from, &c.to); err != nil {
				t.Fatalf("%s: %q: %v", path, line, err)
			}
			out = append(out, c)
		case len(out) == 0:
			t.Fatalf("%s: segment before any path line", path)
		default:
			out[len(out)-1].segments += line + "\n"
		}
	}
	return out
}

// formatSegments prints segments as the .want files do (µs).
func formatSegments(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		fmt.Fprintf(&b, "%d %d %s %s", s.Start/1000, s.End/1000, strconv.Itoa(int(s.Worker.TID)), s.State)
		if s.Reason != "" {
			b.WriteString(" " + s.Reason)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// The work bound leaves the rest of a sleep "unknown" and says so; a
// cancelled context stops the computation.
func TestBoundAndCancel(t *testing.T) {
	h := indexFtrace(t, "testdata/e3-chain.txt")
	p, err := Compute(context.Background(), h, Worker{TID: 30, CPU: -1}, 0, 110000, Options{MaxWork: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := "0 30 30 running\n30 70 31 unknown work bound reached\n70 72 31 preempted\n72 90 31 running\n90 95 30 preempted\n95 110 30 running\n"
	if got := formatSegments(p.Segments); !p.Truncated || got != want {
		t.Errorf("truncated=%v, segments\n%s want\n%s", p.Truncated, got, want)
	}
	newReference(h).checkPath(t, p)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Compute(ctx, h, Worker{TID: 30, CPU: -1}, 0, 110000, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
	if _, err := Compute(context.Background(), h, Worker{TID: 99, CPU: -1}, 0, 110000, Options{}); !errors.Is(err, ErrNoThread) {
		t.Errorf("absent thread: err = %v", err)
	}
}
