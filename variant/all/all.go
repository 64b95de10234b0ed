// Package all registers every variant refereed plays. Import it for its side effect; a new
// variant adds one line here and nothing elsewhere.
package all

import (
	_ "github.com/refereed/refereed/variant/conditional"
	_ "github.com/refereed/refereed/variant/kriegspiel"
	_ "github.com/refereed/refereed/variant/orthodox"
	_ "github.com/refereed/refereed/variant/progressive"
	_ "github.com/refereed/refereed/variant/synchronous"
	_ "github.com/refereed/refereed/variant/trainwreck"
	_ "github.com/refereed/refereed/variant/transactional"
)
