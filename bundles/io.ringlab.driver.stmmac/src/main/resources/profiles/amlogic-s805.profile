# Amlogic S805 (ODROID-C1), the board of the stmmac BQL seed (shared/seeds/001): Cortex-A5, one core in use.
name = amlogic-s805 | source: Beniamino Galvani, "Re: [PATCH net-next] net: stmmac: add BQL support", netdev, 28 Dec 2014
frequencyHz = 1500000000 | source: Amlogic S805 product brief, quad-core Cortex-A5 up to 1.5 GHz
cores = 1 | source: the seed: "SMP is not working yet" on that kernel tree
# Per-frame CPU costs of the whole stack, driver included (TCP/IP send or receive, qdisc, xmit or RX, TX clean, IRQ and
# NAPI overhead), as one constant per direction. Two unknowns, two published figures, with an ACK every second segment
# costing one frame of the opposite direction (the assumption of this fit):
#   TX saturation: 1.5e9 / (tx + rx / 2) = 600e6 / (1514 * 8)  (49,537 frames/s)  ->  tx + rx/2 = 30,281
#   RX saturation: 1.5e9 / (rx + tx / 2) = 650e6 / (1514 * 8)  (53,665 frames/s)  ->  rx + tx/2 = 27,951
#   solved: tx = 21,741, rx = 17,080
stmmac.txFrameCycles = 21741 | fitted: 600 Mbit/s TX of the S805 board (seed 001), jointly with rxFrameCycles
stmmac.rxFrameCycles = 17080 | fitted: 650 Mbit/s RX of the S805 board (seed 001), jointly with txFrameCycles
