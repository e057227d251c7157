import { describe } from 'vitest';
import { type Case, contextWith, familyTable } from '../../../../test/verdict/family-table.ts';

const D = 'DEST_MUTATION';

describe('cloud CLIs: aws, eksctl, gcloud, gsutil, bq, az, doctl', () => {
  familyTable([
    ['aws s3 rb s3://prod-data --force', D],
    ['aws s3 rb s3://empty-bucket', D],
    ['aws s3 rm s3://prod-data --recursive', D],
    ['aws s3 rm --recursive s3://prod-data', D],
    ['aws s3 rm s3://backups/2024/ --recursive --quiet', D],
    ['aws --profile prod --region eu-west-1 s3 rm s3://logs --recursive', D],
    ['aws s3api delete-bucket --bucket customer-uploads', D],
    ['aws rds delete-db-instance --db-instance-identifier prod --skip-final-snapshot', D],
    ['aws rds delete-db-instance --db-instance-identifier prod', D],
    ['aws rds delete-db-cluster --db-cluster-identifier aurora --skip-final-snapshot', D],
    ['aws dynamodb delete-table --table-name Orders', D],
    ['aws cloudformation delete-stack --stack-name prod-network', D],
    ['aws eks delete-cluster --name prod', D],
    ['aws kms schedule-key-deletion --key-id 1234 --pending-window-in-days 7', D],
    ['aws ecr delete-repository --repository-name app --force', D],
    [
      'aws ec2 terminate-instances --instance-ids $(aws ec2 describe-instances --query "R[].I[].Id" --output text)',
      D,
    ],
    ['/usr/local/bin/aws s3 rb s3://x --force', D],
    ['eksctl delete cluster --name prod --region eu-west-1', D],
    ['gcloud projects delete my-prod-project', D],
    ['gcloud projects delete acme-prod --quiet', D],
    ['gcloud beta projects delete acme-prod', D],
    ['gcloud container clusters delete prod --zone europe-west1-b --quiet', D],
    ['gcloud --project acme sql instances delete prod-db --quiet', D],
    ['gcloud storage rm -r gs://acme-prod-assets', D],
    ['gcloud storage rm --recursive gs://acme-backups/**', D],
    ['gcloud storage rm gs://acme-tmp/*', D],
    ['gcloud storage buckets delete gs://acme-logs', D],
    ['gcloud spanner databases delete orders --instance=prod', D],
    ['gcloud compute instances delete $(gcloud compute instances list --format="value(name)")', D],
    ['gsutil rm -r gs://acme-data', D],
    ['gsutil -m rm -r gs://acme-data/*', D],
    ['gsutil rm gs://acme-data/**', D],
    ['gsutil rb gs://acme-data', D],
    ['bq rm -r -f -d acme:analytics', D],
    ["bq query --use_legacy_sql=false 'DELETE FROM ds.events'", D],
    ['az group delete -n prod-rg --yes', D],
    ['az group delete --name rg-core --yes --no-wait', D],
    ['az aks delete -g prod-rg -n prod-aks --yes', D],
    ['az sql db delete -g prod-rg -s sqlsrv -n orders --yes', D],
    ['az storage account delete -n acmeprodstore -g prod-rg --yes', D],
    ['az cosmosdb delete -n acme-cosmos -g prod-rg --yes', D],
    ['az keyvault purge --name acme-kv', D],
    ['az storage blob delete-batch --account-name acme --source logs', D],
    ['doctl kubernetes cluster delete prod --force', D],
    ['doctl k8s c rm prod -f', D],
    ['doctl databases delete 9cc10173-e9ea-4176-9dbc-a4cee4c4ff30 --force', D],
    ['doctl compute droplet delete --tag-name staging --force', D],
    ['doctl compute droplet list --format ID --no-header | xargs doctl compute droplet delete -f', D],
    // Look-alikes: reads, dry runs, one named instance, VM, object or droplet.
    ['aws s3 ls', null],
    ['aws s3 ls s3://prod-data --recursive --summarize', null],
    ['aws s3 rm s3://bucket/one-file.txt', null],
    ['aws s3 rm s3://prod-data --recursive --dryrun', null],
    ['aws s3 cp ./dist s3://site-assets/ --recursive', null],
    ['aws s3 sync ./dist s3://site-assets --delete', null],
    ['aws ec2 terminate-instances --instance-ids i-0abc123def4567890', null],
    ['aws ec2 terminate-instances --instance-ids i-0abc123def4567890 --dry-run', null],
    [
      'aws rds delete-db-instance --db-instance-identifier old --final-db-snapshot-identifier old-final',
      null,
    ],
    ['aws rds describe-db-instances', null],
    ['aws dynamodb delete-item --table-name Orders --key \'{"id":{"S":"o-123"}}\'', null],
    ['aws ecr delete-repository --repository-name empty-repo', null],
    ['aws ecr batch-delete-image --repository-name app --image-ids imageTag=pr-123', null],
    ['gcloud projects list', null],
    ['gcloud projects describe my-prod-project', null],
    ['gcloud compute instances delete scratch-vm-1 --zone europe-west1-b', null],
    ['gcloud storage rm gs://acme-tmp/reports/old.csv', null],
    ['gcloud sql instances describe prod-db', null],
    ['gsutil ls -l gs://acme-data', null],
    ['gsutil rm gs://acme-data/tmp/one.csv', null],
    ["bq query --use_legacy_sql=false 'SELECT count(*) FROM ds.events'", null],
    ['bq ls', null],
    ['az group list -o table', null],
    ['az group show -n prod-rg', null],
    ['az vm delete -g dev-rg -n scratch-vm --yes', null],
    ['az storage blob delete --account-name acme --container-name logs --name 2024/old.log', null],
    ['az group delete -n prod-rg --help', null],
    ['doctl compute droplet list', null],
    ['doctl compute droplet delete scratch-01 --force', null],
    ['eksctl get cluster', null],
  ] satisfies Case[]);
});

describe('cloud with protected buckets and projects', () => {
  const ctx = contextWith({ buckets: ['prod-data'], projects: ['acme-prod'] });
  familyTable(
    [
      ['aws s3 rm s3://prod-data/reports/one.csv', D],
      ['aws s3api delete-object --bucket prod-data --key reports/one.csv', D],
      ['aws s3 sync ./empty s3://prod-data --delete', D],
      ['gcloud compute instances delete web-1 --project acme-prod', D],
      ['gcloud compute instances delete web-1 --project=acme-prod', D],
      ['aws s3 rm s3://scratch/one.csv', null],
      ['aws s3 ls s3://prod-data', null],
      ['aws s3 cp s3://prod-data/a.csv .', null],
      ['gcloud compute instances delete web-1 --project acme-dev', null],
      ['gcloud compute instances list --project acme-prod', null],
    ] satisfies Case[],
    ctx,
  );
});

describe('application platforms: heroku, fly, firebase, supabase', () => {
  familyTable([
    ['heroku apps:destroy --app shop --confirm shop', D],
    ['heroku addons:destroy heroku-postgresql -a shop --confirm shop', D],
    ['heroku pg:reset DATABASE_URL -a shop --confirm shop', D],
    ['fly apps destroy shop -y', D],
    ['flyctl volumes destroy vol_123 --yes', D],
    ['fly postgres destroy shop-db', D],
    ['firebase firestore:delete --all-collections -P prod', D],
    ['firebase firestore:delete users -r', D],
    ['firebase database:remove / -P prod', D],
    ['supabase db reset --linked', D],
    ['supabase projects delete abcd1234', D],
    ['heroku apps:info -a shop', null],
    ['heroku pg:info -a shop', null],
    ['fly apps list', null],
    ['fly deploy', null],
    ['firebase firestore:delete users/alice', null],
    ['firebase database:remove /sessions/abc', null],
    ['supabase db reset', null],
    ['supabase db push --dry-run', null],
  ] satisfies Case[]);
});

describe('cloud: S3 batch deletes whose keys come from a substitution', () => {
  familyTable([
    [
      `aws s3api delete-objects --bucket logs --delete "$(aws s3api list-object-versions --bucket logs --output json --query '{Objects: Versions[].{Key:Key,VersionId:VersionId}}')"`,
      D,
    ],
    [
      'aws s3api delete-objects --bucket logs --delete "$(aws s3api list-objects-v2 --bucket logs --query \'{Objects: Contents[].{Key: Key}}\')"',
      D,
    ],
    ['aws s3api delete-objects --bucket logs --delete `aws s3api list-objects --bucket logs`', D],
    // Look-alikes: a literal list, a list in a file, other deletes.
    [
      "aws s3api delete-objects --bucket logs --delete 'Objects=[{Key=tmp/a.txt},{Key=tmp/b.txt}],Quiet=true'",
      null,
    ],
    [`aws s3api delete-objects --bucket logs --delete '{"Objects":[{"Key":"tmp/a.txt"}]}'`, null],
    ['aws s3api delete-objects --bucket logs --delete file://keys.json', null],
    ['aws s3api delete-object --bucket logs --key tmp/a.txt', null],
    ['aws s3api list-object-versions --bucket logs', null],
  ] satisfies Case[]);
});
