package ingest

import (
	"bufio"
	"errors"
	"io"
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// HostnameSource is implemented by sources whose events come from
// several hosts (a directory of CTF traces): Dump prints each event's
// hostname rather than the source's.
type HostnameSource interface {
	Hostname(ev *core.Event) (name string, ok bool)
}

// TimestampSource is implemented by sources whose events may have no
// timestamp (a CTF stream without a clock): Dump prints no "[...]" for
// those, as babeltrace2 does.
type TimestampSource interface {
	HasTimestamp(ev *core.Event) bool
}

// Reporter is implemented by sources whose dump is their own tool's text
// rather than babeltrace2's (trace.dat: what `trace-cmd report` prints).
type Reporter interface {
	Report(w io.Writer, limit int64) (last core.Time, all bool, err error)
}

// Dump prints the events of src to w, one line each, the way babeltrace2
// --clock-seconds --no-delta does (or as the source's own tool does, for
// a [Reporter]):
//
//	[<seconds.nanoseconds>] <hostname if any> <event name>: <contents>
//
// It stops after limit events when limit > 0. The output is buffered and
// no memory is allocated per event.
func Dump(w io.Writer, src core.Source, limit int64) error {
	_, _, err := DumpUntil(w, src, limit)
	return err
}

// DumpUntil is Dump, also returning the time of the last event printed
// and whether every event was (false when it stopped at the limit), so
// the caller reports only the warnings of the part printed.
func DumpUntil(w io.Writer, src core.Source, limit int64) (last core.Time, all bool, err error) {
	if r, ok := src.(Reporter); ok {
		return r.Report(w, limit)
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	hs, perEvent := src.(HostnameSource)
	ts, timeless := src.(TimestampSource)
	host, hasHost := src.Info().Hostname, src.Info().Hostname != ""
	line := make([]byte, 0, 4096)
	for n := int64(0); ; n++ {
		if limit > 0 && n >= limit {
			return last, false, bw.Flush()
		}
		ev, err := src.Next()
		if errors.Is(err, io.EOF) {
			return last, true, bw.Flush()
		}
		if err != nil {
			bw.Flush()
			return last, false, err
		}
		last = ev.Time
		line = line[:0]
		if !timeless || ts.HasTimestamp(ev) {
			line = append(line, '[')
			line = appendTimestamp(line, ev.Time)
			line = append(line, "] "...)
		}
		if perEvent {
			host, hasHost = hs.Hostname(ev)
		}
		if hasHost {
			line = append(line, host...)
			line = append(line, ' ')
		}
		line = append(line, ev.Class.Name...)
		line = append(line, ": "...)
		line = src.AppendContents(line, ev)
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return last, false, err
		}
	}
}

// appendTimestamp is core.AppendTimestamp (seconds, a dot, nine digits of
// nanoseconds, babeltrace2's --clock-seconds), two digits at a time: the
// dump prints one per event.
func appendTimestamp(dst []byte, t core.Time) []byte {
	if t < 0 {
		return core.AppendTimestamp(dst, t)
	}
	dst = strconv.AppendInt(dst, int64(t/1e9), 10)
	ns := uint32(t % 1e9)
	var b [10]byte
	b[0] = '.'
	b[9] = byte('0' + ns%10)
	ns /= 10
	for i := 7; i >= 1; i -= 2 {
		d := ns % 100
		ns /= 100
		b[i], b[i+1] = digits2[2*d], digits2[2*d+1]
	}
	return append(dst, b[:]...)
}

const digits2 = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"
