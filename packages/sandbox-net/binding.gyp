{
  "targets": [
    {
      "target_name": "sandbox_net",
      "sources": ["src/sandbox-net.c"],
      "cflags": ["-Wall", "-Wextra", "-Werror"]
    },
    {
      "target_name": "toolhost-sandbox-net-init",
      "type": "executable",
      "sources": ["src/sandbox-net-init.c"],
      "cflags": ["-Wall", "-Wextra", "-Werror"]
    },
    {
      "target_name": "toolhost-sandbox-wait-init",
      "type": "executable",
      "sources": ["src/sandbox-wait-init.c"],
      "cflags": ["-Wall", "-Wextra", "-Werror"]
    }
  ]
}
