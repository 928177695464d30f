package ingest

import (
	"bufio"
	"errors"
	"io"

	"github.com/tracetui/tracetui/core"
)

// HostnameSource is implemented by sources whose events come from
// several hosts (a directory of CTF traces): Dump prints each event's
// hostname rather than the source's.
type HostnameSource interface {
	Hostname(ev *core.Event) (name string, ok bool)
}

// Dump prints the events of src to w, one line each, the way babeltrace2
// --clock-seconds --no-delta does:
//
//	[<seconds.nanoseconds>] <hostname if any> <event name>: <contents>
//
// It stops after limit events when limit > 0. The output is buffered and
// no memory is allocated per event.
func Dump(w io.Writer, src core.Source, limit int64) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	hs, perEvent := src.(HostnameSource)
	host, hasHost := src.Info().Hostname, src.Info().Hostname != ""
	line := make([]byte, 0, 4096)
	for n := int64(0); limit <= 0 || n < limit; n++ {
		ev, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			bw.Flush()
			return err
		}
		line = append(line[:0], '[')
		line = core.AppendTimestamp(line, ev.Time)
		line = append(line, "] "...)
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
			return err
		}
	}
	return bw.Flush()
}
