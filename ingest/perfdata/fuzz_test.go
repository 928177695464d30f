package perfdata

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
	"github.com/tracetui/tracetui/ingest/states/kernel"
)

// FuzzPerfData feeds arbitrary bytes through Detect, Open, Next, the
// perf script lines, the kernel analysis and Checkpoint/Seek: nothing may
// panic, hang or allocate from an unchecked length, and time never goes
// back. The seeds are the hand-made file in both byte orders and both
// modes (the recordings are too large for the fuzzer to minimize what
// they find); testdata/fuzz/FuzzPerfData holds damaged ones.
func FuzzPerfData(f *testing.F) {
	for _, big := range []bool{false, true} {
		for _, pipe := range []bool{false, true} {
			f.Add(synthFile(big, pipe))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzBody(t, sourcetest.File(t, "perf.data", data))
	})
}

// fuzzBody is FuzzPerfData's check of one file.
func fuzzBody(t *testing.T, path string) {
	Detect(path)
	src, err := Open(path, Options{})
	if err != nil {
		return
	}
	defer src.Close()
	var line []byte
	var stack []string
	for i := 0; i < 256; i++ {
		if _, err := src.Next(); err != nil {
			break
		}
		line = src.AppendLine(line[:0])
		line = src.AppendContents(line, &src.ev)
		stack = src.AppendStack(stack[:0])
	}
	if err := src.Seek(src.Checkpoint(nil)); err != nil {
		t.Fatalf("Seek to its own checkpoint: %v", err)
	}
	var out bytes.Buffer
	src.Seek([]byte{checkpointVersion})
	src.Report(&out, 1<<12)
	// The same file with its own state, and with damaged states.
	st := src.IndexState()
	for _, state := range [][]byte{st, st[:len(st)/2], append(st[:len(st)-5:len(st)-5], 1, 2, 3, 4, 5)} {
		if ix, err := Open(path, Options{Indexed: true, State: state}); err == nil {
			for i := 0; i < 64; i++ {
				if _, err := ix.Next(); err != nil {
					break
				}
			}
			ix.Close()
		}
	}
	fresh, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("second Open: %v", err)
	}
	defer fresh.Close()
	layout := kernel.Detect(fresh.Info(), fresh.Classes())
	sourcetest.Fuzz(t, fresh, func(s core.StateSink) sourcetest.Analysis { return noWarnings{kernel.New(s, layout)} }, 1<<12)
}

// TestWriteFuzzCorpus writes damaged hand-made files into the committed
// corpus when PERFDATA_WRITE_CORPUS is set (a record's size, an attr's
// size, a feature's offset and the tracing data's counts changed).
func TestWriteFuzzCorpus(t *testing.T) {
	if os.Getenv("PERFDATA_WRITE_CORPUS") == "" {
		t.Skip("set PERFDATA_WRITE_CORPUS=1 to rewrite testdata/fuzz/FuzzPerfData")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzPerfData")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) {
		body := "go test fuzz v1\n[]byte(" + strconv.Quote(string(b)) + ")\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	le, pipe := synthFile(false, false), synthFile(false, true)
	write("truncated-file", le[:len(le)/2])
	write("truncated-pipe", pipe[:len(pipe)*2/3])
	bad := append([]byte(nil), le...)
	binary.LittleEndian.PutUint64(bad[32:], 1<<40) // attrs size
	write("huge-attrs", bad)
	bad = append([]byte(nil), pipe...)
	binary.LittleEndian.PutUint16(bad[16+6:], 4) // first HEADER_ATTR size < 8
	write("short-record", bad)
	bad = append([]byte(nil), le...)
	i := bytes.Index(bad, []byte("sched\x00"))
	binary.LittleEndian.PutUint32(bad[i+6:], 1<<30) // formats in the system
	write("tracing-count", bad)
}
