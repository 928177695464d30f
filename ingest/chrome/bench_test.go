package chrome

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
)

// benchSizeEnv sets the size of the generated trace, in MB (default 64).
const benchSizeEnv = "TRACETUI_CHROME_BENCH_MB"

// countingSink is a cheap core.StateSink: it keeps the current values
// only, as the history builder's front does, and counts changes.
type countingSink struct {
	tree    *core.AttributeTree
	cur     []core.Value
	changes int64
}

func (s *countingSink) Attributes() *core.AttributeTree { return s.tree }
func (s *countingSink) Modify(k core.Key, _ core.Time, v core.Value) error {
	for int(k) >= len(s.cur) {
		s.cur = append(s.cur, core.Null())
	}
	s.cur[k] = v
	s.changes++
	return nil
}
func (s *countingSink) Value(k core.Key) core.Value {
	if int(k) < len(s.cur) {
		return s.cur[k]
	}
	return core.Null()
}

// BenchmarkIngest parses, sorts and analyses a generated trace (size from
// $TRACETUI_CHROME_BENCH_MB, default 64): Open (first pass, sort runs),
// every Next, and the state analysis into a cheap sink. It reports events
// per second and the process's peak RSS. Run alone (-run '^$') so other
// tests do not raise the peak:
//
//	TRACETUI_CHROME_BENCH_MB=1024 go test ./ingest/chrome -run '^$' -bench Ingest -benchtime 1x
func BenchmarkIngest(b *testing.B) {
	benchIngest(b, func(core.StateSink) analysis { return nil })
}

type analysis interface {
	Handle(*core.Event) error
	Finish(core.Time) error
}

func benchIngest(b *testing.B, newAnalysis func(core.StateSink) analysis) {
	mb := int64(64)
	if s := os.Getenv(benchSizeEnv); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v <= 0 {
			b.Fatalf("%s=%q: want a number of MB", benchSizeEnv, s)
		}
		mb = v
	}
	dir := b.TempDir()
	path, events := gentest.ChromeTrace(b, mb)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	cpu0 := gentest.CPUTime()
	b.ResetTimer()
	for range b.N {
		src, err := Open(path, Options{TempDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		sink := &countingSink{tree: core.NewAttributeTree()}
		a := newAnalysis(sink)
		var n int64
		for {
			ev, err := src.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if a != nil {
				if err := a.Handle(ev); err != nil {
					b.Fatal(err)
				}
			}
			n++
		}
		if a != nil {
			a.Finish(src.Info().End)
		}
		src.Close()
		if n != events {
			b.Fatalf("read %d events, wrote %d", n, events)
		}
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	// CPU time (all threads, GC included) is steadier than wall time on
	// a shared machine: events per CPU-second is the single-core rate.
	b.ReportMetric(float64(events)*float64(b.N)/(gentest.CPUTime()-cpu0).Seconds(), "events/cpu-s")
	b.ReportMetric(gentest.PeakRSS(), "peak-RSS-MiB")
	b.ReportMetric(float64(events), "events")
}

// BenchmarkEncodingJSONBaseline decodes the same generated trace with
// encoding/json (streaming, one event struct at a time, no sort, no
// analysis): the peer our hand-written tokenizer is measured against.
func BenchmarkEncodingJSONBaseline(b *testing.B) {
	mb := int64(64)
	if s := os.Getenv(benchSizeEnv); s != "" {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil && v > 0 {
			mb = v
		}
	}
	path, events := gentest.ChromeTrace(b, mb)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	cpu0 := gentest.CPUTime()
	b.ResetTimer()
	for range b.N {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		dec := json.NewDecoder(bufio.NewReaderSize(f, 1<<20))
		for {
			tok, err := dec.Token()
			if err != nil {
				b.Fatal(err)
			}
			if tok == "traceEvents" {
				break
			}
		}
		if _, err := dec.Token(); err != nil { // '['
			b.Fatal(err)
		}
		var n int64
		for dec.More() {
			var ev struct {
				Name string          `json:"name"`
				Cat  string          `json:"cat"`
				Ph   string          `json:"ph"`
				Ts   float64         `json:"ts"`
				Dur  float64         `json:"dur"`
				Pid  json.RawMessage `json:"pid"`
				Tid  json.RawMessage `json:"tid"`
				Args json.RawMessage `json:"args"`
			}
			if err := dec.Decode(&ev); err != nil {
				b.Fatal(err)
			}
			n++
		}
		f.Close()
		if n != events {
			b.Fatalf("decoded %d events, wrote %d", n, events)
		}
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(events)*float64(b.N)/(gentest.CPUTime()-cpu0).Seconds(), "events/cpu-s")
}

// BenchmarkTokenize measures the first pass's tokenizer alone on an
// in-memory trace (no file, no sort), for profiling it.
func BenchmarkTokenize(b *testing.B) {
	path, events := gentest.ChromeTrace(b, 16)
	data, _ := os.ReadFile(path)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		er := newEventReader(bytes.NewReader(data), readBufSize, maxEventBytes)
		var ev rawEvent
		var n int64
		for {
			ok, err := er.next(&ev)
			if err != nil {
				b.Fatal(err)
			}
			if !ok {
				break
			}
			n++
		}
		if n != events {
			b.Fatalf("%d events, want %d", n, events)
		}
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
