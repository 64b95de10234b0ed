module github.com/refereed/refereed

go 1.26.0

require (
	github.com/emersion/go-message v0.18.2
	go.etcd.io/bbolt v1.4.3
	golang.org/x/net v0.62.0
)

require (
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
