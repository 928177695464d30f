package chrome

import (
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// AppendContents implements core.Source. It prints the event's members
// other than name and ts, babeltrace-style:
//
//	{ ph = "X", cat = "c", dur = 12.5, id = "0x1", pid = 1, tid = 2, args = { n = 3 } }
//
// Arguments and unknown members keep their JSON scalars as written
// (strings quoted); objects print as { k = v, ... } and arrays as [ v, ... ].
func (s *Source) AppendContents(dst []byte, ev *core.Event) []byte {
	r := &s.rec
	dst = append(dst, "{ "...)
	sep := false
	item := func(key string) {
		if sep {
			dst = append(dst, ", "...)
		}
		sep = true
		dst = append(dst, key...)
		dst = append(dst, " = "...)
	}
	if r.oname != nil {
		item("name")
		dst = strconv.AppendQuote(dst, string(r.oname))
	}
	if r.ph != 0 {
		item("ph")
		dst = append(dst, '"', r.ph, '"')
	}
	if len(r.cat) > 0 {
		item("cat")
		dst = strconv.AppendQuote(dst, string(r.cat))
	}
	if r.hasDur {
		item("dur")
		dst = strconv.AppendFloat(dst, float64(r.dur)/1000, 'f', -1, 64)
	}
	if len(r.id) > 0 {
		item("id")
		if r.id[0] == '{' {
			dst = appendJSON(dst, r.id, 0)
		} else if r.idNum {
			dst = append(dst, r.id...)
		} else {
			dst = strconv.AppendQuote(dst, string(r.id))
		}
	}
	if r.thread != noThread {
		th := &s.cat.threads[r.thread]
		item("pid")
		dst = appendID(dst, th.pid, th.pidNum)
		if th.hasTid {
			item("tid")
			dst = appendID(dst, th.tid, th.tidNum)
		}
	}
	if len(r.args) > 0 {
		item("args")
		dst = appendJSON(dst, r.args, 0)
	}
	if len(r.extra) > 0 {
		// extra is `"k":v,"k":v`: print it as the members of an object.
		wrapped := make([]byte, 0, len(r.extra)+2)
		wrapped = append(append(append(wrapped, '{'), r.extra...), '}')
		eachMember(wrapped, func(key, val []byte) bool {
			item(string(key))
			dst = appendJSON(dst, val, 0)
			return true
		})
	}
	return append(dst, " }"...)
}

func appendID(dst []byte, text string, num bool) []byte {
	if num {
		return append(dst, text...)
	}
	return strconv.AppendQuote(dst, text)
}

// maxPrintDepth bounds the nesting printed; deeper values print as JSON.
const maxPrintDepth = 16

// appendJSON prints a raw JSON value babeltrace-style.
func appendJSON(dst, val []byte, depth int) []byte {
	if len(val) == 0 {
		return dst
	}
	if depth >= maxPrintDepth {
		return append(dst, val...)
	}
	switch val[0] {
	case '{':
		if isEmpty(val) {
			return append(dst, "{ }"...)
		}
		dst = append(dst, "{ "...)
		first := true
		eachMember(val, func(key, v []byte) bool {
			if !first {
				dst = append(dst, ", "...)
			}
			first = false
			dst = append(dst, key...)
			dst = append(dst, " = "...)
			dst = appendJSON(dst, v, depth+1)
			return true
		})
		return append(dst, " }"...)
	case '[':
		if isEmpty(val) {
			return append(dst, "[ ]"...)
		}
		dst = append(dst, "[ "...)
		i, first := 1, true
		for {
			i = skipSpace(val, i)
			if i >= len(val) || val[i] == ']' {
				break
			}
			if val[i] == ',' {
				i++
				continue
			}
			end, err := skipValue(val, i)
			if err != nil {
				dst = append(dst, val[i:]...)
				break
			}
			if !first {
				dst = append(dst, ", "...)
			}
			first = false
			dst = appendJSON(dst, val[i:end], depth+1)
			i = end
		}
		return append(dst, " ]"...)
	}
	return append(dst, val...)
}

func isEmpty(val []byte) bool {
	i := skipSpace(val, 1)
	return i < len(val) && (val[i] == '}' || val[i] == ']')
}
