package keymap

import (
	"reflect"

	"github.com/charmbracelet/bubbles/key"
)

// numBindingFields counts the key.Binding fields of KeyMap (reflection is
// fine in a test: it checks the hand-written Actions list).
func numBindingFields() int {
	t := reflect.TypeFor[KeyMap]()
	n := 0
	for i := range t.NumField() {
		if t.Field(i).Type == reflect.TypeFor[key.Binding]() {
			n++
		}
	}
	return n
}
