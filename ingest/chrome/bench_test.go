package chrome

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
)

// benchSizeEnv sets the size of the generated trace, in MB (default 64).
const benchSizeEnv = "TRACETUI_CHROME_BENCH_MB"

// writeBenchTrace writes a synthetic trace of about size bytes: 16
// threads of nested slices in the shapes real producers write (X events
// written when they end, so parents follow children; B/E pairs; instants;
// counters with two series; args on most events). It returns the number
// of events.
func writeBenchTrace(path string, size int64) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(`{"otherData":{"version":"bench"},"traceEvents":[` + "\n")
	var n int64
	var line []byte
	emit := func(b []byte) {
		if n > 0 {
			w.WriteString(",\n")
		}
		w.Write(b)
		n++
	}
	names := []string{"ParseDeclarationOrFunctionDefinition", "InstantiateFunction", "PerformPendingInstantiations", "CodeGen Function", "RunPass", "OptFunction", "Source", "Frontend"}
	ts := int64(1_700_000_000_000_000) // epoch microseconds, as Bazel writes
	for tid := 0; tid < 16; tid++ {
		line = fmt.Appendf(line[:0], `{"name":"thread_name","ph":"M","pid":1,"tid":%d,"args":{"name":"worker-%d"}}`, tid, tid)
		emit(line)
	}
	written := func() int64 { return int64(w.Buffered()) }
	var flushed int64
	for i := 0; flushed+written() < size; i++ {
		tid := i % 16
		base := ts + int64(i)*40
		// A parent X with two X children, written children first, and a
		// B/E pair with an instant inside.
		for c := 0; c < 2; c++ {
			line = fmt.Appendf(line[:0], `{"pid":1,"tid":%d,"ph":"X","ts":%d.%03d,"dur":%d.5,"name":%q,"args":{"detail":"file%d.h","count":%d}}`,
				tid, base+int64(c)*10, i%1000, 8, names[(i+c)%len(names)], i%977, c)
			emit(line)
		}
		line = fmt.Appendf(line[:0], `{"pid":1,"tid":%d,"ph":"X","ts":%d,"dur":25,"name":%q}`, tid, base, names[i%len(names)])
		emit(line)
		line = fmt.Appendf(line[:0], `{"name":"step","cat":"exec","ph":"B","ts":%d,"pid":1,"tid":%d,"args":{"id":%d}}`, base+26, tid, i)
		emit(line)
		line = fmt.Appendf(line[:0], `{"name":"tick","ph":"i","s":"t","ts":%d,"pid":1,"tid":%d}`, base+27, tid)
		emit(line)
		line = fmt.Appendf(line[:0], `{"name":"step","cat":"exec","ph":"E","ts":%d,"pid":1,"tid":%d}`, base+30, tid)
		emit(line)
		if i%8 == 0 {
			line = fmt.Appendf(line[:0], `{"name":"memory","ph":"C","ts":%d,"pid":1,"args":{"heap":%d,"rss":%d.25}}`, base, i%5000, i%7000)
			emit(line)
		}
		if w.Buffered() > 512<<10 {
			flushed += int64(w.Buffered())
			if err := w.Flush(); err != nil {
				return 0, err
			}
		}
	}
	w.WriteString("\n]}\n")
	if err := w.Flush(); err != nil {
		return 0, err
	}
	return n, f.Close()
}

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

// peakRSS returns VmHWM, the process's peak resident set, in MiB.
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(l, []byte("VmHWM:")); ok {
			kb, _ := strconv.ParseFloat(string(bytes.Fields(v)[0]), 64)
			return kb / 1024
		}
	}
	return 0
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

// BenchmarkIngestAnalysis is BenchmarkIngest with the state analysis.
func BenchmarkIngestAnalysis(b *testing.B) {
	benchIngest(b, func(s core.StateSink) analysis { return NewAnalysis(s) })
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
	path := filepath.Join(dir, "bench.json")
	events, err := writeBenchTrace(path, mb<<20)
	if err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	cpu0 := cpuTime()
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
	b.ReportMetric(float64(events)*float64(b.N)/(cpuTime()-cpu0).Seconds(), "events/cpu-s")
	b.ReportMetric(peakRSS(), "peak-RSS-MiB")
	b.ReportMetric(float64(events), "events")
}

// cpuTime returns the process's user plus system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
	path := filepath.Join(b.TempDir(), "bench.json")
	events, err := writeBenchTrace(path, mb<<20)
	if err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	cpu0 := cpuTime()
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
	b.ReportMetric(float64(events)*float64(b.N)/(cpuTime()-cpu0).Seconds(), "events/cpu-s")
}

// BenchmarkTokenize measures the first pass's tokenizer alone on an
// in-memory trace (no file, no sort), for profiling it.
func BenchmarkTokenize(b *testing.B) {
	path := filepath.Join(b.TempDir(), "t.json")
	events, err := writeBenchTrace(path, 16<<20)
	if err != nil {
		b.Fatal(err)
	}
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
