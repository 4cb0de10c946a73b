import type { ForgeWorld } from './forge-world.js';
import { hashBlob as hashOf } from './git-objects.js';

/** Names in the demo world, for tests and the `forge-sim` command. */
export const DEMO = {
  org: 'acme',
  publicRepo: 'widgets',
  privateRepo: 'secret-sauce',
  users: { alice: 'alice', bob: 'bob', carol: 'carol' },
} as const;

/** What {@link seedDemoWorld} created that callers need to address. */
export interface DemoWorldIds {
  readonly pullNumber: number;
  readonly mergedPullNumber: number;
  readonly issueNumber: number;
  readonly headSha: string;
  readonly runId: number;
  readonly jobId: number;
  readonly checkRunId: number;
  readonly releaseId: number;
  readonly assetId: number;
  readonly issueCommentId: number;
  readonly reviewId: number;
  readonly reviewCommentId: number;
  readonly commitCommentId: number;
  readonly issueEventId: number;
  readonly rulesetId: number;
  readonly workflowId: number;
  readonly gistId: string;
  readonly blobSha: string;
  readonly treeSha: string;
  readonly tagObjectSha: string;
}

/**
 * Seeds a small but complete world: organization `acme` (alice public admin, bob private
 * member), users alice, bob and carol, the public repository `acme/widgets` with a branch,
 * an open and a merged pull request, reviews, issues, labels, a milestone, a release with
 * an asset, check runs, statuses, an Actions run with jobs and logs, a deployment, a
 * ruleset, stars, a fork, and the private repository `acme/secret-sauce`.
 */
export function seedDemoWorld(world: ForgeWorld): DemoWorldIds {
  const { org, publicRepo: name } = DEMO;
  world.addUser({
    login: 'alice',
    name: 'Alice Liddell',
    email: 'alice@example.com',
    bio: 'Maintainer',
  });
  world.addUser({ login: 'bob', name: 'Bob Builder' });
  world.addUser({ login: 'carol', name: 'Carol Danvers' });
  world.addOrg({
    login: org,
    name: 'Acme Corp',
    description: 'Makers of fine widgets',
    members: [
      { login: 'alice', public: true, role: 'admin' },
      { login: 'bob', public: false },
    ],
  });
  world.addFollower('alice', 'bob');
  world.addFollower('alice', 'carol');
  world.addKey('alice', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGdemoKeyOnlyForTheSimulator alice');
  const gist = world.addGist({
    owner: 'alice',
    description: 'hello gist',
    files: { 'hello.txt': 'hello\n' },
  });

  const repo = world.addRepo({
    owner: org,
    name,
    description: 'Widgets for everyone',
    topics: ['widgets', 'demo'],
    languages: { TypeScript: 42_000, Shell: 1_200 },
    files: {
      'README.md': '# widgets\n\nWidgets for everyone.\n',
      LICENSE: 'MIT License\n\nCopyright (c) Acme\n',
      'CONTRIBUTING.md': 'Be kind.\n',
      'src/index.ts': 'export const widget = 1;\n',
      'docs/README.md': '# Docs\n',
      '.github/workflows/ci.yml': 'name: CI\non: [push]\n',
    },
    collaborators: { carol: 'push' },
  });
  world.addCommit({
    owner: org,
    repo: name,
    message: 'Add widget helper',
    author: 'alice',
    files: { 'src/helper.ts': 'export const help = () => 1;\n' },
  });
  world.addTag({ owner: org, repo: name, name: 'v1.0.0', message: 'First release' });
  world.setBranchProtection(org, name, 'main', true);

  world.addBranch({ owner: org, repo: name, name: 'feature/sprockets' });
  world.addCommit({
    owner: org,
    repo: name,
    branch: 'feature/sprockets',
    message: 'Add sprockets',
    author: 'bob',
    files: { 'src/sprocket.ts': 'export const sprocket = 2;\n' },
  });
  const headCommit = world.addCommit({
    owner: org,
    repo: name,
    branch: 'feature/sprockets',
    message: 'Tune sprockets',
    author: 'bob',
    files: { 'src/sprocket.ts': 'export const sprocket = 3;\n' },
  });
  const { pull } = world.addPull({
    owner: org,
    repo: name,
    title: 'Add sprockets',
    body: 'Sprockets make widgets spin.',
    head: 'feature/sprockets',
    author: 'bob',
    labels: ['enhancement'],
    requestedReviewers: ['carol'],
  });
  const review = world.addReview({
    owner: org,
    repo: name,
    number: pull.number,
    user: 'alice',
    state: 'APPROVED',
    body: 'Looks good',
  });
  const reviewComment = world.addReviewComment({
    owner: org,
    repo: name,
    number: pull.number,
    user: 'alice',
    body: 'Nice constant',
    path: 'src/sprocket.ts',
    line: 1,
    reviewId: review.id,
  });
  world.addReaction({
    owner: org,
    repo: name,
    target: { reviewComment: reviewComment.id },
    user: 'bob',
    content: 'heart',
  });

  world.addBranch({ owner: org, repo: name, name: 'fix/typo' });
  world.addCommit({
    owner: org,
    repo: name,
    branch: 'fix/typo',
    message: 'Fix typo',
    author: 'carol',
    files: { 'README.md': '# widgets\n\nWidgets for everybody.\n' },
  });
  const merged = world.addPull({
    owner: org,
    repo: name,
    title: 'Fix typo',
    head: 'fix/typo',
    author: 'carol',
    state: 'merged',
  });

  const issue = world.addIssue({
    owner: org,
    repo: name,
    title: 'Widgets wobble',
    body: 'They wobble when spun.',
    author: 'carol',
    labels: ['bug'],
    assignees: ['alice'],
    milestone: 'v1.1',
  });
  world.addIssue({ owner: org, repo: name, title: 'Old question', author: 'bob', state: 'closed' });
  const comment = world.addIssueComment({
    owner: org,
    repo: name,
    number: issue.number,
    author: 'alice',
    body: 'Confirmed.',
  });
  world.addReaction({ owner: org, repo: name, target: { issue: issue.number }, user: 'bob' });
  world.addReaction({
    owner: org,
    repo: name,
    target: { comment: comment.id },
    user: 'carol',
    content: 'eyes',
  });
  const commitComment = world.addCommitComment({
    owner: org,
    repo: name,
    sha: headCommit.sha,
    user: 'alice',
    body: 'Neat',
  });

  const release = world.addRelease({
    owner: org,
    repo: name,
    tag: 'v1.0.0',
    name: 'Widgets 1.0',
    body: 'The first release.',
    assets: [{ name: 'widgets.tgz', content: 'not really a tarball\n' }],
  });

  const checkRun = world.addCheckRun({
    owner: org,
    repo: name,
    ref: headCommit.sha,
    name: 'lint',
    conclusion: 'success',
    annotations: [
      {
        path: 'src/sprocket.ts',
        startLine: 1,
        endLine: 1,
        level: 'warning',
        message: 'Magic number',
      },
    ],
  });
  world.addStatus({
    owner: org,
    repo: name,
    ref: headCommit.sha,
    context: 'ci/legacy',
    state: 'success',
    description: 'All good',
  });
  const workflow = world.addWorkflow({
    owner: org,
    repo: name,
    name: 'CI',
    path: '.github/workflows/ci.yml',
  });
  const { run, jobs } = world.addRun({
    owner: org,
    repo: name,
    workflow: workflow.id,
    ref: 'feature/sprockets',
    event: 'pull_request',
    jobs: [
      { name: 'build', log: 'Building...\nBuild OK\n' },
      { name: 'test', log: 'Running 42 tests\nAll passed\n' },
    ],
    artifacts: [{ name: 'coverage', sizeInBytes: 2048 }],
  });
  world.addDeployment({ owner: org, repo: name, environment: 'production' });
  const ruleset = world.addRuleset({ owner: org, repo: name, name: 'protect main' });
  world.addStar(org, name, 'bob');
  world.addStar(org, name, 'carol');
  world.addRepo({
    owner: 'carol',
    name,
    forkOf: `${org}/${name}`,
    description: 'My fork of widgets',
  });

  world.addRepo({
    owner: org,
    name: DEMO.privateRepo,
    private: true,
    description: 'The recipe',
    files: { 'RECIPE.md': 'Secret.\n' },
  });
  world.addIssue({ owner: org, repo: DEMO.privateRepo, title: 'Private issue', author: 'bob' });

  const head = repo.commits.get(repo.branches.get('main')?.sha ?? '');
  const readme = head?.files.get('README.md') ?? '';
  const tag = repo.tags.get('v1.0.0');
  const firstEvent = [...repo.issueEvents.values()].find((e) => e.issueNumber === issue.number);
  return {
    pullNumber: pull.number,
    mergedPullNumber: merged.pull.number,
    issueNumber: issue.number,
    headSha: headCommit.sha,
    runId: run.id,
    jobId: jobs[0]?.id ?? 0,
    checkRunId: checkRun.id,
    releaseId: release.id,
    assetId: release.assets[0]?.id ?? 0,
    issueCommentId: comment.id,
    reviewId: review.id,
    reviewCommentId: reviewComment.id,
    commitCommentId: commitComment.id,
    issueEventId: firstEvent?.id ?? 0,
    rulesetId: ruleset.id,
    workflowId: workflow.id,
    gistId: gist.id,
    blobSha: hashOf(readme),
    treeSha: head?.treeSha ?? '',
    tagObjectSha: tag?.objectSha ?? '',
  };
}
