package ingest

import (
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// Column identifies a column of the event table.
type Column int

// The event table's columns, in display order.
const (
	ColTime Column = iota
	ColCPU
	ColEvent
	ColTID
	ColProcess
	ColContents
	NumColumns
)

var columnNames = [NumColumns]string{"Time", "CPU", "Event", "TID", "Process", "Contents"}

// String returns the column's title.
func (c Column) String() string {
	if c < 0 || c >= NumColumns {
		return "column?"
	}
	return columnNames[c]
}

// Row is one event as the table shows it.
type Row struct {
	Rank     int64
	Time     core.Time
	CPU      int32 // -1 when unknown
	Event    string
	TID      int64 // -1 when unknown
	Process  string
	Contents string
}

// Text returns the text of one column of the row, as shown and as matched
// by filters.
func (r *Row) Text(c Column) string {
	return string(r.appendText(nil, c))
}

func (r *Row) appendText(dst []byte, c Column) []byte {
	switch c {
	case ColTime:
		return core.AppendTimestamp(dst, r.Time)
	case ColCPU:
		if r.CPU < 0 {
			return dst
		}
		return strconv.AppendInt(dst, int64(r.CPU), 10)
	case ColEvent:
		return append(dst, r.Event...)
	case ColTID:
		if r.TID < 0 {
			return dst
		}
		return strconv.AppendInt(dst, r.TID, 10)
	case ColProcess:
		return append(dst, r.Process...)
	case ColContents:
		return append(dst, r.Contents...)
	}
	return dst
}
