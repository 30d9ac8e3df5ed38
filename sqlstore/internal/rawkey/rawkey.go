// Package rawkey seals the test hook of package sqlstore: only packages
// inside sqlstore can import it and so name a Key, and only with a Key can
// DB.Raw be called. Package sqlstore/sqltest holds one; nothing in the
// program does.
package rawkey

// Key unlocks DB.Raw. Its unexported field makes it a type no other
// package can spell, not even as a struct literal.
type Key struct{ _ bool }
