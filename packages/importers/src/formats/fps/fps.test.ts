import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { detectFormat, exportQuestions, importFile } from '../../index.js';

const PNG = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
const FPS = `<?xml version="1.0" encoding="UTF-8"?>
<fps version="1.2" url="https://github.com/zhblue/freeproblemset/">
<generator name="HUSTOJ" url="https://github.com/zhblue/hustoj/"/>
<item>
<title><![CDATA[A+B Problem]]></title>
<time_limit unit="s"><![CDATA[1]]></time_limit>
<memory_limit unit="mb"><![CDATA[128]]></memory_limit>
<img><src><![CDATA[/upload/ab.png]]></src><base64><![CDATA[${PNG}]]></base64></img>
<description><![CDATA[<p>计算 a+b <img src="/upload/ab.png"></p>]]></description>
<input><![CDATA[<p>两个整数</p>]]></input>
<output><![CDATA[<p>它们的和</p>]]></output>
<sample_input><![CDATA[1 2
]]></sample_input>
<sample_output><![CDATA[3
]]></sample_output>
<test_input><![CDATA[1 2
]]></test_input>
<test_output><![CDATA[3
]]></test_output>
<test_input><![CDATA[-5 5
]]></test_input>
<test_output><![CDATA[0
]]></test_output>
<hint><![CDATA[注意负数]]></hint>
<source><![CDATA[入门, 模拟]]></source>
<solution language="Pascal"><![CDATA[begin end.]]></solution>
<solution language="Obj-C"><![CDATA[int main(){}]]></solution>
</item>
<item>
<title>Tiny limits</title>
<time_limit unit="ms">50</time_limit>
<memory_limit unit="kb">65536</memory_limit>
<description>&lt;p&gt;x&lt;/p&gt;</description>
<test_input>1</test_input><test_output>1</test_output>
</item>
<item>
<title>Special judge</title>
<description>any answer</description>
<test_input>1</test_input><test_output>1</test_output>
<spj language="C"><![CDATA[int main(){return 0;}]]></spj>
</item>
<item>
<title>Unpaired</title>
<description>broken</description>
<test_input>1</test_input><test_input>2</test_input><test_output>1</test_output>
</item>
</fps>`;

describe('FPS', () => {
  it('reads statement, limits, samples, hidden cases, pictures and the reference solution', async () => {
    expect(detectFormat('problems.xml', strToU8(FPS))).toBe('fps');
    const r = await importFile({ name: 'problems.xml', bytes: strToU8(FPS) });
    expect(r.format).toBe('fps');
    expect(r.questions).toHaveLength(2);
    const [ab, tiny] = r.questions;
    expect(ab).toMatchObject({ title: 'A+B Problem', tags: ['入门', '模拟'], where: { line: 4, element: 'item[1]' } });
    expect(ab!.question).toEqual({
      kind: 'programming',
      content: {
        stem: '<p>计算 a+b <img src="import-file:f1"></p><h3>输入 Input</h3><p>两个整数</p><h3>输出 Output</h3><p>它们的和</p><h3>提示 Hint</h3>注意负数',
        languages: ['c', 'cpp', 'java', 'python', 'pascal'],
        samples: [{ input: '1 2\n', output: '3\n' }],
        time_limit_ms: 1000,
        memory_limit_mb: 128,
      },
      key: {
        checker: 'default',
        cases: [
          { input: '1 2\n', output: '3\n', name: '1' },
          { input: '-5 5\n', output: '0\n', name: '2' },
        ],
        reference: { language: 'pascal', source: 'begin end.' },
      },
    });
    expect(r.files).toEqual([{ id: 'f1', name: 'ab.png', mime: 'image/png', bytes: Buffer.from(PNG, 'base64') }]);
    expect(tiny!.question).toMatchObject({ content: { stem: '<p>x</p>', time_limit_ms: 100, memory_limit_mb: 64 } });
    expect(r.problems.map((p) => [p.code, p.severity, p.where.element])).toEqual([
      ['language_unknown', 'info', 'item[1]/solution'],
      ['limit_adjusted', 'info', 'item[2]'],
      ['no_counterpart', 'warning', 'item[3]/spj'],
      ['case_unpaired', 'error', 'item[4]'],
    ]);
  });

  it('hidden cases beyond the contract’s count are reported and the problem is not imported', async () => {
    const many = Array.from({ length: 201 }, (_v, i) => `<test_input>${i}</test_input><test_output>${i}</test_output>`);
    const fps = `<fps><item><title>t</title><description>d</description>${many.join('')}</item></fps>`;
    const r = await importFile({ name: 'x.fps', bytes: strToU8(fps) });
    expect(r.questions).toEqual([]);
    expect(r.problems.map((p) => [p.code, p.params.count, p.params.limit])).toEqual([['too_many_cases', 201, 200]]);
    expect(r.problems[0]!.message_zh).toBe('第 1 行，item[1]：隐藏测试用例有 201 个，超过上限 200，未导入该题');
  });

  it('malformed XML is a located problem; a DOCTYPE is refused', async () => {
    const bad = await importFile({ name: 'bad.xml', bytes: strToU8('<fps>\n<item><title>x</item>\n</fps>') });
    expect(bad.questions).toEqual([]);
    expect(bad.problems.map((p) => [p.code, p.where.line])).toEqual([['xml_malformed', 2]]);
    const xxe = '<?xml version="1.0"?><!DOCTYPE fps [<!ENTITY x SYSTEM "file:///etc/passwd">]><fps>&x;</fps>';
    const refused = await importFile({ name: 'x.fps', bytes: strToU8(xxe) });
    expect(refused.refused).toBe(true);
    expect(refused.problems[0]!.code).toBe('xml_doctype');
  });

  it('exports programming problems and reports the kinds and checkers it cannot carry', async () => {
    const r = await importFile({ name: 'problems.xml', bytes: strToU8(FPS) });
    const custom = {
      ...r.questions[1]!,
      question: { ...r.questions[1]!.question, key: { checker: 'float:0.001', cases: [{ input: '1', output: '1' }] } },
    } as (typeof r.questions)[number];
    const single = {
      ...r.questions[0]!,
      question: { kind: 'qa', content: { stem: 'x' }, key: {} },
    } as (typeof r.questions)[number];
    const out = await exportQuestions('fps', [r.questions[0]!, custom, single]);
    expect(out.problems.map((p) => [p.code, p.where.element])).toEqual([
      ['not_exported', 'question[2]'],
      ['not_exported', 'question[3]'],
    ]);
    const text = new TextDecoder().decode(out.bytes);
    expect(text).toContain('<solution language="Pascal">');
    const back = await importFile({ name: 'back.fps.xml', bytes: out.bytes });
    expect(back.questions.map((q) => q.question.key)).toEqual([r.questions[0]!.question.key]);
  });
});
