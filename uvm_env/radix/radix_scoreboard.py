# SPDX-License-Identifier: Apache-2.0
"""RadixScoreboard: every response against RadixPredictor, field by field."""

from __future__ import annotations

from pyuvm import uvm_subscriber

from uvm_env.common.scoreboard_base import ScoreboardBase, accounting
from uvm_env.radix.protocol import ST_MEMORY, ST_OK, RadixRsp, encode_rsp
from uvm_env.radix.radix_coverage import RadixCoverage
from uvm_env.radix.radix_item import RadixCmd
from uvm_env.radix.radix_predictor import RadixParams, RadixPredictor


class RadixScoreboard(ScoreboardBase):
    params: RadixParams

    def build_phase(self) -> None:
        super().build_phase()
        self.pred = RadixPredictor(self.params)
        self.cov = RadixCoverage("radix")
        self.cov.page_size, self.cov.max_len = self.params.page_size, self.params.max_len
        self.cov.node_cap = self.params.node_cap
        self.sub = _CmdSubscriber("sub", self)
        self.analysis_export = self.sub.analysis_export
        self.history: list[str] = []   # recent commands, printed with a mismatch
        self.n_responses = 0
        self.driver = None             # set by the env: end-of-test accounting
        self.ddr = None                # the L2 build's DDR model (fault injections)
        # DDR injections already explained, by an earlier fault onset or by a test that
        # saw them absorbed (a failed prefetch read): a new onset needs a newer one.
        self.fault_mark = 0
        self.race = None               # a RaceTracker, fed each scored command, if set

    def write_cmd(self, cmd: RadixCmd) -> None:
        assert cmd.rsp is not None
        self.n_responses += 1
        cmd.tree_state = self.pred.tree_state(cmd)
        onset = cmd.rsp.status == ST_MEMORY and not self.pred.faulted
        if onset:
            # Legal only after an injected DDR fault; the data beats of the command the
            # fault cut short are undefined, so only its trailer is compared.
            injected = self.ddr.injected if self.ddr is not None else 0
            self.check(f"{cmd}: MEMORY only after a newly injected DDR fault",
                       injected > self.fault_mark,
                       f"{injected} injected, {self.fault_mark} of them explained before")
            self.fault_mark = injected
            exp = self.pred.fault_onset(cmd)
            exp.rsp.kvs = list(cmd.rsp.kvs)
        else:
            exp = self.pred.predict(cmd)
        if self.race is not None:
            self.race.scored(cmd)
        while self.pred.oracle_disagreements:
            self.check("capacity oracle", False, self.pred.oracle_disagreements.pop(0))
        self.history = (self.history + [str(cmd)])[-8:]
        expected = exp.rsp.fields()
        actual = cmd.rsp.fields()
        # The handle's value is the DUT's choice; its stability is checked below.
        expected["b"] = actual["b"] if exp.node is not None else expected["b"]
        ok = self.compare(f"{cmd} #{self.n_checked}", expected, actual)
        if ok and cmd.rsp_raw and not onset:
            # The fields match; now the frame itself: its length (no surplus or missing
            # beat), zero padding of unused lanes and of the trailer's reserved bits.
            # (The kernel test reads responses from DDR words, not stream beats.)
            want = RadixRsp(exp.rsp.op, exp.rsp.status, exp.rsp.a, actual["b"], exp.rsp.c,
                            exp.rsp.kvs)
            ok = self.compare(f"{cmd} #{self.n_checked} frame (beats, padding)",
                              [hex(b) for b in encode_rsp(want, self.params.data_w)],
                              [hex(b) for b in cmd.rsp_raw])
        if not ok:
            self.logger.error("last commands:\n  " + "\n  ".join(self.history))
            self.logger.error("model state:\n" + self.pred.model.dump(max_tokens=6))
        elif exp.node is not None and exp.rsp.status == ST_OK:
            problem = self.pred.learn_handle(exp.node, cmd.rsp.b)
            self.check(f"{cmd} handle", problem is None, problem or "")
        self.cov.sample(cmd, exp)

    def pending(self) -> list[str]:
        drv = self.driver
        if drv is None:
            return []
        return accounting(drv.in_flight, drv.sink.count(), drv.sent, drv.completed,
                          drv.aborted, self.n_responses)


class _CmdSubscriber(uvm_subscriber):
    def write(self, tt: RadixCmd) -> None:
        self.get_parent().write_cmd(tt)
