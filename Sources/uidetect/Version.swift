/// The version `uidetect --version` prints: the one place it is written.
let uidetectVersion = "0.1.0"
