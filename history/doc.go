// Package history is the on-disk state history: an R-SHT (State History
// Tree with R-Tree properties) built once per trace and queried for every
// frame of the browser. The file format is documented in this package doc
// when the format lands.
package history
