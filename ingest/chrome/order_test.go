package chrome

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/chrome/chrometest"
)

// eventLine identifies an event and all its fields, for comparisons.
func eventLine(src core.Source, ev *core.Event) string {
	out := []byte(core.FormatTimestamp(ev.Time) + " " + ev.Class.Name + " ")
	out = src.AppendContents(out, ev)
	for i, f := range ev.Fields {
		if f.Kind != core.FieldNone {
			out = append(out, " "+ev.Class.Fields[i]+"="...)
			out = f.AppendText(out)
		}
	}
	return string(out)
}

// persisted is what a sorting source's indexing pass gives: the events it
// delivered, checkpoints taken before some of them, and the order.
type persisted struct {
	lines []string
	cps   [][]byte
	cpAt  []int
	sec   []byte
}

// persist reads the trace at path with a sorting source recording its
// order, taking a checkpoint before about one event in ten.
func persist(t testing.TB, rng *rand.Rand, path string, opts Options) persisted {
	t.Helper()
	src, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	ow, err := src.RecordOrder(t.TempDir(), "order-")
	if err != nil || ow == nil {
		t.Fatalf("RecordOrder: %v, %v", ow, err)
	}
	defer ow.Close()
	var p persisted
	for {
		if rng.IntN(10) == 0 {
			p.cps = append(p.cps, src.Checkpoint(nil))
			p.cpAt = append(p.cpAt, len(p.lines))
		}
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		p.lines = append(p.lines, eventLine(src, ev))
	}
	_, r, err := ow.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if p.sec, err = io.ReadAll(r); err != nil {
		t.Fatal(err)
	}
	return p
}

// readAll returns the lines of every event left in src.
func readAll(t testing.TB, src core.Source) ([]string, error) {
	var out []string
	for {
		ev, err := src.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, eventLine(src, ev))
	}
}

// checkOrdered checks that a source opened from p.sec delivers p's events,
// seeks to p's checkpoints, and clones.
func checkOrdered(t *testing.T, rng *rand.Rand, path string, p persisted) {
	t.Helper()
	o, err := OpenOrdered(path, bytes.NewReader(p.sec), int64(len(p.sec)), OrderedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if o.Events() != int64(len(p.lines)) {
		t.Fatalf("Events() = %d, want %d", o.Events(), len(p.lines))
	}
	got, err := readAll(t, o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, p.lines) {
		t.Fatalf("persisted order differs from the sorting source's\n got %q\nwant %q", got, p.lines)
	}
	for _, k := range rng.Perm(len(p.cps)) {
		if err := o.Seek(p.cps[k]); err != nil {
			t.Fatalf("Seek to the sorting source's checkpoint of event %d: %v", p.cpAt[k], err)
		}
		for j := p.cpAt[k]; j < len(p.lines) && j < p.cpAt[k]+50; j++ {
			ev, err := o.Next()
			if err != nil {
				t.Fatalf("after Seek to event %d: %v", p.cpAt[k], err)
			}
			if l := eventLine(o, ev); l != p.lines[j] {
				t.Fatalf("after Seek to event %d: event %d is %q, want %q", p.cpAt[k], j, l, p.lines[j])
			}
		}
		// Its own checkpoint, taken a few events later, brings it back
		// there too.
		if j := p.cpAt[k] + 3; j < len(p.lines) {
			if err := o.Seek(p.cps[k]); err != nil {
				t.Fatal(err)
			}
			for range 3 {
				o.Next()
			}
			cp := o.Checkpoint(nil)
			o.Next()
			if err := o.Seek(cp); err != nil {
				t.Fatal(err)
			}
			if ev, err := o.Next(); err != nil || eventLine(o, ev) != p.lines[j] {
				t.Fatalf("own checkpoint at %d: %v", j, err)
			}
		}
	}
	c, err := o.Clone()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, err := readAll(t, c); err != nil || !slices.Equal(got, p.lines) {
		t.Fatalf("clone: %d events, %v; want %d", len(got), err, len(p.lines))
	}
}

// TestOrderedMatchesSortingProperty checks on random shuffled traces
// (sorted in many small runs) that the persisted order yields exactly the
// events, order and checkpoint positions of the sorting source.
func TestOrderedMatchesSortingProperty(t *testing.T) {
	rng := coretest.Rand(t)
	for range 6 {
		text, _, _ := chrometest.GenTrace(rng, 1+rng.IntN(5))
		path := chrometest.WriteTemp(t, text)
		opts := Options{TempDir: t.TempDir(), RunBytes: minRunBytes + rng.IntN(64<<10)}
		checkOrdered(t, rng, path, persist(t, rng, path, opts))
	}
}

// TestOrderedSamples runs the same check on the sample traces of real
// tracers (escapes, metadata, non-numeric ids, truncation).
func TestOrderedSamples(t *testing.T) {
	rng := coretest.Rand(t)
	names, _ := filepath.Glob(filepath.Join(sampleDir, "*.json"))
	for _, path := range names {
		if strings.Contains(path, "malformed") {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			checkOrdered(t, rng, path, persist(t, rng, path, Options{TempDir: t.TempDir()}))
		})
	}
}

func TestRecordOrderSkipsGzip(t *testing.T) {
	path := bigEventsGzip(t, 2, 8)
	src, err := Open(path, Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if ow, err := src.RecordOrder(t.TempDir(), "o-"); ow != nil || err != nil {
		t.Fatalf("RecordOrder on gzip = %v, %v; want nil, nil", ow, err)
	}
}

// TestOrderedDamaged checks that a damaged section, or a trace changed
// behind the index, is an error wrapping ErrOrderDamaged (passed through
// the Damaged hook) and never a wrong event.
func TestOrderedDamaged(t *testing.T) {
	rng := coretest.Rand(t)
	text, _, _ := chrometest.GenTrace(rng, 3)
	path := chrometest.WriteTemp(t, text)
	p := persist(t, rng, path, Options{TempDir: t.TempDir(), RunBytes: minRunBytes})
	hooked := 0
	opts := OrderedOptions{Damaged: func(err error) error { hooked++; return err }}
	open := func(sec []byte) error {
		o, err := OpenOrdered(path, bytes.NewReader(sec), int64(len(sec)), opts)
		if err != nil {
			return err
		}
		defer o.Close()
		got, err := readAll(t, o)
		if err == nil && !slices.Equal(got, p.lines) {
			t.Fatalf("damaged section read without error but with other events")
		}
		return err
	}
	// Every byte of the header, some of the rest.
	offs := []int{}
	for i := range orderHeaderSize {
		offs = append(offs, i)
	}
	for range 200 {
		offs = append(offs, orderHeaderSize+rng.IntN(len(p.sec)-orderHeaderSize))
	}
	for _, off := range offs {
		bad := bytes.Clone(p.sec)
		bad[off] ^= 1 << rng.IntN(8)
		if err := open(bad); err != nil && !errors.Is(err, ErrOrderDamaged) {
			t.Fatalf("flipped byte %d: %v, want ErrOrderDamaged", off, err)
		} else if err == nil && off < orderHeaderSize && (off < 76) {
			t.Fatalf("flipped header byte %d: no error", off)
		}
	}
	if err := open(p.sec[:len(p.sec)-1]); !errors.Is(err, ErrOrderDamaged) {
		t.Fatalf("truncated section: %v", err)
	}
	// The trace changed with the same size: an event no longer parses
	// where the index says, and the error names its offset.
	b := []byte(text)
	i := bytes.Index(b, []byte(`{"name"`))
	b[i] = ' '
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	before := hooked
	err := open(p.sec)
	if !errors.Is(err, ErrOrderDamaged) || !strings.Contains(err.Error(), "offset ") || hooked == before {
		t.Fatalf("changed trace: %v (hook called %d times)", err, hooked-before)
	}
	if err := os.WriteFile(path, b[:len(b)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := open(p.sec); !errors.Is(err, ErrOrderDamaged) {
		t.Fatalf("shorter trace: %v", err)
	}
}

// FuzzOrdered feeds arbitrary bytes as a persisted order of a small
// trace, as they are and with their header and catalog checksums made
// right (so the fuzzer gets past them), and to the catalog and page
// decoders directly: errors are fine; panics, hangs and huge allocations
// are not.
func FuzzOrdered(f *testing.F) {
	path := filepath.Join(sampleDir, "catapult-phases.json")
	rng := rand.New(rand.NewPCG(1, 2))
	f.Add(persist(f, rng, path, Options{TempDir: f.TempDir()}).sec)
	f.Add([]byte(orderMagic))
	f.Fuzz(func(t *testing.T, sec []byte) {
		decodeCatalog(sec)
		decodePage(sec, 300, 1<<20, nil)
		readOrdered(path, sec)
		if len(sec) >= orderHeaderSize {
			fixed := bytes.Clone(sec)
			le := binary.LittleEndian
			if c := le.Uint64(fixed[48:]); c <= uint64(len(fixed)-orderHeaderSize) {
				le.PutUint32(fixed[68:], core.CRC32C(fixed[orderHeaderSize:orderHeaderSize+c]))
			}
			le.PutUint32(fixed[72:], core.CRC32C(fixed[:72]))
			readOrdered(path, fixed)
		}
	})
}

// readOrdered reads up to 5000 events of the order sec of the trace at path.
func readOrdered(path string, sec []byte) {
	o, err := OpenOrdered(path, bytes.NewReader(sec), int64(len(sec)), OrderedOptions{})
	if err != nil {
		return
	}
	defer o.Close()
	for range 5000 {
		if _, err := o.Next(); err != nil {
			return
		}
	}
}

// TestOrderedClonesConcurrent reads clones of one persisted-order source
// at once (the event table and filter workers do): run with -race.
func TestOrderedClonesConcurrent(t *testing.T) {
	rng := coretest.Rand(t)
	path := filepath.Join(sampleDir, "catapult-phases.json")
	p := persist(t, rng, path, Options{TempDir: t.TempDir()})
	o, err := OpenOrdered(path, bytes.NewReader(p.sec), int64(len(p.sec)), OrderedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	errs := make(chan error, 4)
	for range 4 {
		c, err := o.Clone()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			defer c.Close()
			got, err := readAll(t, c)
			if err == nil && !slices.Equal(got, p.lines) {
				err = errors.New("a clone read other events")
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
