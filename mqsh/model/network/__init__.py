"""The lab's network: hosts grouped in sites, the links between sites, and the message channels
that move messages between queue managers over them (mqsh.model.network.channels)."""
