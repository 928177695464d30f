package gentest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// ChromeTrace returns a generated Chrome trace-event JSON file of about mb
// MiB and its number of events, writing it on first use (kept in Dir).
func ChromeTrace(tb testing.TB, mb int64) (string, int64) {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	path := filepath.Join(Dir(), fmt.Sprintf("chrome-%dmb.json", mb))
	count := path + ".events"
	if b, err := os.ReadFile(count); err == nil {
		if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			return path, n
		}
	}
	if err := os.MkdirAll(Dir(), 0o755); err != nil {
		tb.Fatal(err)
	}
	// Written under temporary names and renamed, the trace before its
	// count: another test process (go test runs packages in parallel) may
	// be writing or reading the same ones.
	tmp := fmt.Sprintf("%s.tmp-%d", path, os.Getpid())
	n, err := writeChromeTrace(tmp, mb<<20)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err == nil {
		err = os.WriteFile(tmp, strconv.AppendInt(nil, n, 10), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, count)
	}
	if err != nil {
		os.Remove(tmp)
		tb.Fatal(err)
	}
	return path, n
}

// writeChromeTrace writes a synthetic Chrome trace of about size bytes: 16
// threads of nested slices in the shapes real producers write (X events
// written when they end, so parents follow children; B/E pairs; instants;
// counters with two series; args on most events). It returns the number
// of events.
func writeChromeTrace(path string, size int64) (int64, error) {
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

// PeakRSS returns VmHWM, the process's peak resident set, in MiB.
func PeakRSS() float64 {
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
