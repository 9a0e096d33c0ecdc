# SPDX-License-Identifier: Apache-2.0
"""kernel_fsm: krnl_fsm driven like XRT would, checked against models.token_fsm.

Run 1 streams a table image from DDR and loads it, binds two slots, walks one
through a sampled document with ADVANCE and MASK and validates another; run 2
reuses the resident grammar (no image) and includes refused commands.
"""

from __future__ import annotations

import pyuvm
from pyuvm import uvm_env

from sglang_fpga.wire import FsmCommand as FsmCmd
from sglang_fpga.wire import fsm_command_buffer, fsm_mask_beats, fsm_results
from uvm_env.common.base_test import BaseTest
from uvm_env.common.config import BenchConfig
from uvm_env.common.scoreboard_base import ScoreboardBase
from uvm_env.fsm import grammars
from uvm_env.fsm.fsm_predictor import FsmParams, FsmPredictor
from uvm_env.fsm.protocol import (
    OP_ADVANCE,
    OP_BIND,
    OP_LOAD,
    OP_MASK,
    OP_MASK_BATCH,
    OP_VALIDATE,
    ST_OK,
)
from uvm_env.top.kernel_host import KernelHost

CMD, RSP, MASK, TABLE, RAM_BYTES = 0x0, 0x4_0000, 0x8_0000, 0x10_0000, 0x20_0000


class KernelFsmEnv(uvm_env):
    dut: object
    clock: object
    reset: object

    def build_phase(self) -> None:
        self.host = KernelHost(self.dut, self.clock, self.reset, RAM_BYTES, num_args=8,
                               num_outs=3, masters=("m_axi_gmem", "m_axi_gmem1"))
        self.scoreboard = ScoreboardBase("scoreboard", self)


@pyuvm.test()
class KernelFsmTest(BaseTest):
    clock_port, reset_port = "ap_clk", "ap_rst_n"

    def make_config(self) -> BenchConfig:
        cfg = super().make_config()
        cfg.timeout_us = 20_000
        return cfg

    def make_env(self) -> KernelFsmEnv:
        env = KernelFsmEnv("env", self)
        env.dut, env.clock, env.reset = self.dut, self.clock, self.reset
        return env

    async def body(self) -> None:
        d = self.dut
        p = FsmParams(vocab_max=int(d.VocabMax.value), class_w=int(d.ClassW.value),
                      state_w=int(d.StateW.value), row_w=int(d.RowW.value),
                      ns_cap=int(d.NsCap.value), row_cap=int(d.RowCap.value),
                      n_slots=int(d.NSlots.value), n_grammars=int(d.NGrammars.value),
                      mask_w=512, load_w=512)
        self.pred = FsmPredictor(p)
        rng = self.cfg.child_rng("kernel")
        vocab = grammars.synthetic_vocab(grammars.JUMP_REGEX, rng, 300)
        g = grammars.build("kernel", grammars.JUMP_REGEX, vocab)
        self.image = g.image
        doc = g.sample_tokens(rng)
        other = g.sample_tokens(rng)
        run1 = [FsmCmd(OP_LOAD, grammar=0), FsmCmd(OP_BIND, slot=1, grammar=0),
                FsmCmd(OP_BIND, slot=2, grammar=0), FsmCmd(OP_MASK, slot=1)]
        for tok in doc:
            run1 += [FsmCmd(OP_ADVANCE, slot=1, token=tok), FsmCmd(OP_MASK, slot=1)]
        run1.append(FsmCmd(OP_VALIDATE, slot=2, tokens=other + [vocab.eos_id]))
        # A serving batch's masks in one packet: a slot named twice, a bad slot between.
        batch = [1, 2, p.n_slots, 1]
        run1.append(FsmCmd(OP_MASK_BATCH, slot=batch[0], slots=batch))
        await self.run_batch(run1, with_image=True)
        bad = [FsmCmd(OP_ADVANCE, slot=p.n_slots, token=0), FsmCmd(0x3F),
               FsmCmd(OP_BIND, slot=3, grammar=1), FsmCmd(OP_ADVANCE, slot=3, token=0),
               FsmCmd(OP_BIND, slot=4, grammar=0), FsmCmd(OP_MASK, slot=4)]
        await self.run_batch(bad, with_image=False)

    async def run_batch(self, cmds: list[FsmCmd], with_image: bool) -> None:
        host, sb = self.env.host, self.env.scoreboard
        buf = fsm_command_buffer(cmd.beats() for cmd in cmds)
        host.ram.write(CMD, buf)
        table_bytes = len(self.image) if with_image else 0
        if with_image:
            host.ram.write(TABLE, self.image)
        rsp_words, mask_words, status = await host.run(
            [CMD, len(buf) // 8, RSP, (MASK - RSP) // 8, MASK, (TABLE - MASK) // 8,
             TABLE, table_bytes])
        sb.compare("kernel status (overflows, misaligned)", 0, status)
        got = fsm_results(host.ram.read(RSP, rsp_words * 8))
        masks = fsm_mask_beats(host.ram.read(MASK, mask_words * 8))
        exps = []
        for cmd in cmds:
            if cmd.op == OP_MASK_BATCH:
                exps += [(cmd, e) for e in self.pred.predict_batch(cmd.slots)]
            else:
                exps.append((cmd, self.pred.predict(
                    cmd.op, cmd.slot, cmd.grammar, cmd.token, tokens=cmd.tokens,
                    image=self.image if cmd.op == OP_LOAD else None)))
        sb.compare("one result per command (per slot of a MASK_BATCH)",
                   sum(cmd.results() for cmd in cmds), len(got))
        for i, ((cmd, exp), rsp) in enumerate(zip(exps, got, strict=False)):
            sb.compare(f"result {i} {cmd}", exp.rsp.fields(), rsp.fields())
            if exp.rsp.status == ST_OK and exp.mask is not None:
                n = len(exp.mask)
                sb.compare(f"mask of result {i}", exp.mask, masks[:n])
                masks = masks[n:]
        sb.compare("no stray mask beats", [], masks)
        self.logger.info(f"kernel run: {len(cmds)} commands, {rsp_words} result words, "
                         f"{mask_words} mask words")
