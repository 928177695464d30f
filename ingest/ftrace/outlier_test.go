package ftrace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// stampRe finds an event line's timestamp.
var stampRe = regexp.MustCompile(`\s(\d+)\.(\d{6}): `)

// lineTimes reads every event of the capture in text and returns its
// delivered time by line number, with the warnings.
func lineTimes(t *testing.T, text string) (map[int64]core.Time, []core.Warning) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "trace.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	times := map[int64]core.Time{}
	for {
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		times[src.r.LineNo()-1] = ev.Time
	}
	return times, src.Warnings()
}

// shiftLine adds d nanoseconds to the timestamp of line n (1-based).
func shiftLine(t *testing.T, text string, n int, d int64) string {
	t.Helper()
	ls := strings.Split(text, "\n")
	m := stampRe.FindStringSubmatchIndex(ls[n-1])
	if m == nil {
		t.Fatalf("line %d has no timestamp: %q", n, ls[n-1])
	}
	sec, _ := strconv.ParseInt(ls[n-1][m[2]:m[3]], 10, 64)
	us, _ := strconv.ParseInt(ls[n-1][m[4]:m[5]], 10, 64)
	ns := sec*1e9 + us*1e3 + d
	ls[n-1] = ls[n-1][:m[2]] + fmt.Sprintf("%d.%06d", ns/1e9, ns%1e9/1e3) + ls[n-1][m[5]:]
	return strings.Join(ls, "\n")
}

func countKind(ws []core.Warning, kind string) int {
	n := 0
	for _, w := range ws {
		if w.Kind == kind {
			n++
		}
	}
	return n
}

// TestIsolatedJumpIsADamagedLine moves one random event line of a real
// capture into the future (issue 18: one such line moved every later
// event to its time). Every other event keeps its time; the damaged one
// is delivered at the next line's time, with a "time-jump" warning.
func TestIsolatedJumpIsADamagedLine(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(sampleDir, "rec-tiny.txt"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	want, ws := lineTimes(t, text)
	if n := countKind(ws, "time-jump") + countKind(ws, "time-order"); n != 0 {
		t.Fatalf("the sound capture has %d time warnings: %+v", n, ws)
	}
	var evLines []int64
	for n := range want {
		evLines = append(evLines, n)
	}
	slices.Sort(evLines)
	rng := coretest.Rand(t)
	for range 20 {
		i := 1 + rng.IntN(len(evLines)-2) // not the last: nothing after it to compare with
		n := evLines[i]
		jump := 2*outlierGap + rng.Int64N(1e15)
		got, ws := lineTimes(t, shiftLine(t, text, int(n), jump))
		if c := countKind(ws, "time-jump"); c != 1 {
			t.Fatalf("line %d moved by %d ns: %d time-jump warnings, want 1: %+v", n, jump, c, ws)
		}
		next := core.Time(1 << 62)
		for m, tm := range want {
			if m > n {
				next = min(next, tm)
			}
		}
		for m, tm := range want {
			switch {
			case m == n && got[m] != next:
				t.Fatalf("damaged line %d delivered at %d, want the next line's %d", m, got[m], next)
			case m != n && got[m] != tm:
				t.Fatalf("line %d moved by %d ns: line %d delivered at %d, want %d", n, jump, m, got[m], tm)
			}
		}
	}
}

// TestRealPauseIsNotAJump: a line far ahead followed by lines that stay
// near it is a pause, not damage; and a line going back after a pause is
// the damaged one (clamped, as before).
func TestRealPauseIsNotAJump(t *testing.T) {
	const head = "# tracer: nop\n"
	line := func(sec, us int) string {
		return fmt.Sprintf("           bash-1234  [001] .....  %d.%06d: sys_enter: NR 0 (0, 0, 0, 0, 0, 0)\n", sec, us)
	}
	pause := head + line(10, 0) + line(10, 5) + line(50, 0) + line(50, 10) + line(50, 20)
	_, ws := lineTimes(t, pause)
	if n := countKind(ws, "time-jump") + countKind(ws, "time-order"); n != 0 {
		t.Errorf("a pause gave time warnings: %+v", ws)
	}
	back := head + line(10, 0) + line(10, 5) + line(50, 0) + line(49, 0) + line(50, 20)
	got, ws := lineTimes(t, back)
	if countKind(ws, "time-jump") != 0 || countKind(ws, "time-order") != 1 {
		t.Errorf("a line going back after a pause: want one time-order warning, got %+v", ws)
	}
	if got[5] != 50e9 {
		t.Errorf("the line going back is delivered at %d, want the later time 50 s", got[5])
	}
	first := head + line(900, 0) + line(10, 0) + line(10, 5)
	got, ws = lineTimes(t, first)
	if countKind(ws, "time-jump") != 1 || got[2] != 10e9 {
		t.Errorf("a damaged first line: delivered at %d with %+v, want at 10 s with a time-jump warning", got[2], ws)
	}
}

// TestBinaryRefused: --format ftrace on a trace.dat or on binary data
// says what the file is instead of printing its bytes as skipped lines.
func TestBinaryRefused(t *testing.T) {
	dir := t.TempDir()
	dat := filepath.Join(dir, "trace.dat")
	os.WriteFile(dat, []byte("\x17\x08\x44tracing6\x00\x00\x00\x00\x10\x00\x00header_page\x00"), 0o644)
	bin := filepath.Join(dir, "random.bin")
	junk := make([]byte, 4096)
	for i := range junk {
		junk[i] = byte(i * 7919 >> 3)
	}
	os.WriteFile(bin, junk, 0o644)
	for path, want := range map[string]string{dat: "trace-cmd report", bin: "NUL byte"} {
		_, err := Open(path, Options{})
		if err == nil || !strings.Contains(err.Error(), want) || strings.ContainsAny(err.Error(), "\x00\x17") {
			t.Errorf("Open(%s) = %v, want a clear error saying %q", filepath.Base(path), err, want)
		}
		if ok, _ := Detect(path); ok {
			t.Errorf("Detect(%s) = true", filepath.Base(path))
		}
	}
}

// TestOpenCancelled: Open's first pass honours its context.
func TestOpenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Open(filepath.Join(sampleDir, "rec-tiny.txt"), Options{Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("Open with a cancelled context = %v, want context.Canceled", err)
	}
}
